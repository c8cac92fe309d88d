package dev.herald.spring.boot.ownserver;

import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** An application that builds its own {@link McpServer}: the starter serves it as it is. */
@SpringBootApplication
public class OwnServerApplication {
  @Bean
  McpServer ownServer() {
    return McpServer.builder()
        .info("own", "7.0.0")
        .tool(
            Tool.builder("own_tool")
                .description("The application's own tool.")
                .inputSchema(McpJson.mapper().createObjectNode().put("type", "object"))
                .build(),
            call -> CallToolResult.text("mine"))
        .build();
  }
}
