package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reserved {@code _meta} keys (2025-11-25 and 2026-07-28 basic/index §_meta) and typed readers for
 * them. The readers never throw: a missing or malformed value reads as {@code null}, so callers
 * decide whether that is an error (a modern request without {@link #PROTOCOL_VERSION} is -32602).
 */
public final class MetaKeys {
  private MetaKeys() {}

  /** Request {@code _meta}: the progress token (string or integer), all versions. */
  public static final String PROGRESS_TOKEN = "progressToken";

  /** Request {@code _meta}, 2026-07-28, required: the protocol version of this request. */
  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

  /** Request {@code _meta}, 2026-07-28, optional: the client's {@link Implementation}. */
  public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

  /** Request {@code _meta}, 2026-07-28, required: the client's {@link ClientCapabilities} for this request. */
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

  /** Request {@code _meta}, 2026-07-28, optional: the {@link LoggingLevel} for this request's log messages. */
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";

  /** Notification and listen-result {@code _meta}, 2026-07-28: the id of the {@code subscriptions/listen} request. */
  public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** Result {@code _meta}, 2026-07-28: the server's {@link Implementation}. */
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /** Any message {@code _meta}, 2025-11-25 core tasks: the {@link RelatedTaskMetadata}. */
  public static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

  /** {@code CreateTaskResult._meta}, 2025-11-25: a string the host may hand the model at once. */
  public static final String MODEL_IMMEDIATE_RESPONSE =
      "io.modelcontextprotocol/model-immediate-response";

  /** W3C trace context (SEP-414); prefix-less by explicit exception. */
  public static final String TRACEPARENT = "traceparent";

  /** W3C trace context (SEP-414). */
  public static final String TRACESTATE = "tracestate";

  /** W3C baggage (SEP-414). */
  public static final String BAGGAGE = "baggage";

  public static @Nullable ProgressToken progressToken(@Nullable ObjectNode meta) {
    JsonNode v = meta == null ? null : meta.get(PROGRESS_TOKEN);
    if (v == null) {
      return null;
    }
    try {
      return ProgressToken.fromJson(v);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public static @Nullable String protocolVersion(@Nullable ObjectNode meta) {
    return string(meta, PROTOCOL_VERSION);
  }

  public static @Nullable Implementation clientInfo(@Nullable ObjectNode meta) {
    return typed(meta, CLIENT_INFO, Implementation.class);
  }

  public static @Nullable ClientCapabilities clientCapabilities(@Nullable ObjectNode meta) {
    return typed(meta, CLIENT_CAPABILITIES, ClientCapabilities.class);
  }

  /** The log level as sent (a string, so an unknown level can be answered with -32602). */
  public static @Nullable String logLevel(@Nullable ObjectNode meta) {
    return string(meta, LOG_LEVEL);
  }

  public static @Nullable RequestId subscriptionId(@Nullable ObjectNode meta) {
    JsonNode v = meta == null ? null : meta.get(SUBSCRIPTION_ID);
    if (v == null) {
      return null;
    }
    try {
      return RequestId.fromJson(v);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public static @Nullable Implementation serverInfo(@Nullable ObjectNode meta) {
    return typed(meta, SERVER_INFO, Implementation.class);
  }

  public static @Nullable RelatedTaskMetadata relatedTask(@Nullable ObjectNode meta) {
    return typed(meta, RELATED_TASK, RelatedTaskMetadata.class);
  }

  /** A string value, or {@code null} when absent or not a string. */
  public static @Nullable String string(@Nullable ObjectNode meta, String key) {
    JsonNode v = meta == null ? null : meta.get(key);
    return v != null && v.isString() ? v.stringValue() : null;
  }

  private static <T> @Nullable T typed(@Nullable ObjectNode meta, String key, Class<T> type) {
    JsonNode v = meta == null ? null : meta.get(key);
    if (v == null || !v.isObject()) {
      return null;
    }
    try {
      return McpJson.fromTree(v, type);
    } catch (McpException e) {
      return null;
    }
  }
}
