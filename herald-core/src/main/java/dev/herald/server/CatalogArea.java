package dev.herald.server;

import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ServerCapabilities;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A catalog whose changes are announced with {@code notifications/<area>/list_changed} (spec
 * §4.6), with the capability that opens its gate. Tools, resources and prompts all report changes
 * through {@link McpServer}'s and {@link ServerSession}'s change hooks with their area.
 */
@SuppressWarnings("ImmutableEnumChecker") // method references, and a cache of a constant encoding
enum CatalogArea {
  TOOLS(McpMethods.TOOLS_LIST_CHANGED, ServerCapabilities::toolsListChanged),
  PROMPTS(McpMethods.PROMPTS_LIST_CHANGED, ServerCapabilities::promptsListChanged),
  RESOURCES(McpMethods.RESOURCES_LIST_CHANGED, ServerCapabilities::resourcesListChanged);

  private final String method;
  private final Predicate<ServerCapabilities> declared;

  /** The notification, encoded on first use; it has no params, so one encoding serves every server. */
  private volatile @Nullable EncodedMessage notification;

  CatalogArea(String method, Predicate<ServerCapabilities> declared) {
    this.method = method;
    this.declared = declared;
  }

  /** The notification method. */
  String method() {
    return method;
  }

  /**
   * {@code notifications/<area>/list_changed}, encoded once (a race at first use encodes twice,
   * harmlessly) and shared by every session told.
   */
  EncodedMessage notification() {
    EncodedMessage n = notification;
    if (n == null) {
      n = EncodedMessage.of(new JsonRpcMessage.Notification(method, null));
      notification = n;
    }
    return n;
  }

  /** Whether {@code caps} declared {@code <area>.listChanged}. */
  boolean declaredIn(ServerCapabilities caps) {
    return declared.test(caps);
  }
}
