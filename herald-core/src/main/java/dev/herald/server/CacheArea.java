package dev.herald.server;

import dev.herald.wire.McpMethods;
import org.jspecify.annotations.Nullable;

/**
 * The results that carry caching hints, {@code ttlMs} and {@code cacheScope} (MCP 2026-07-28
 * server/utilities/caching, {@code CacheableResult}): one area per method. Each area's hint is set
 * with {@link McpServer.Builder#cacheHint}; every page of a list gets its area's hint, so all
 * pages of one list share one scope. Hints go on complete results of stateless (2026-07-28)
 * requests only: never on an {@code input_required} result, never in the handshake era.
 */
public enum CacheArea {
  /** {@code server/discover}. */
  DISCOVER(McpMethods.SERVER_DISCOVER),
  /** {@code tools/list}. */
  TOOLS(McpMethods.TOOLS_LIST),
  /** {@code prompts/list}. */
  PROMPTS(McpMethods.PROMPTS_LIST),
  /** {@code resources/list}. */
  RESOURCES(McpMethods.RESOURCES_LIST),
  /** {@code resources/templates/list}. */
  RESOURCE_TEMPLATES(McpMethods.RESOURCES_TEMPLATES_LIST),
  /** {@code resources/read}. */
  RESOURCE_READ(McpMethods.RESOURCES_READ);

  private final String method;

  CacheArea(String method) {
    this.method = method;
  }

  /** The method whose results this area's hint goes on. */
  public String method() {
    return method;
  }

  /** The area of {@code method}, or {@code null} when its results are not cacheable. */
  static @Nullable CacheArea of(String method) {
    for (CacheArea a : values()) {
      if (a.method.equals(method)) {
        return a;
      }
    }
    return null;
  }
}
