package dev.herald.spring.boot;

import dev.herald.server.McpServer;

/**
 * Adds to the {@link McpServer} the starter builds: tools, resources, prompts, completions,
 * interceptors, event listeners, any {@link McpServer.Builder} setting. Every bean of this type
 * is applied, in {@code @Order} order, after the {@code herald.*} properties, so a customizer
 * wins over a property. Not consulted when the application defines its own {@code McpServer}.
 *
 * {@snippet :
 * @Bean
 * McpServerCustomizer echo() {
 *   return builder -> builder.tool(
 *       Tool.builder("echo").description("Echoes its text").inputSchema(schema).build(),
 *       call -> CallToolResult.text(call.string("text", "")));
 * }
 * }
 */
@FunctionalInterface
public interface McpServerCustomizer {
  /** Changes {@code builder}; called once, on the thread that refreshes the context. */
  void customize(McpServer.Builder builder);
}
