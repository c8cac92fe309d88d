package dev.herald.spring.boot;

import dev.herald.http.servlet.McpServlet;

/**
 * Changes the endpoint settings of the {@link McpServlet} the starter mounts (event store, stream
 * queue bounds, SSE timings, legacy SSE paths: any {@link McpServlet.Builder} setting). Every bean
 * of this type is applied, in {@code @Order} order, after the {@code herald.*} properties.
 *
 * {@snippet :
 * @Bean
 * McpServletCustomizer keepAlive() {
 *   return servlet -> servlet.sseKeepAlive(Duration.ofSeconds(15));
 * }
 * }
 */
@FunctionalInterface
public interface McpServletCustomizer {
  /** Changes {@code builder}; called once, on the thread that refreshes the context. */
  void customize(McpServlet.Builder builder);
}
