package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A 2026-07-28 client drops every listed tool whose {@code x-mcp-header} annotations are invalid
 * (MCP 2026-07-28 basic/transports/streamable-http, "Custom Headers from Tool Parameters"); a
 * handshake-era list, where the keyword means nothing, is exposed whole.
 */
@Timeout(30)
class InvalidToolHeadersTest {
  /** One valid annotated tool, one unannotated, and three with invalid annotations. */
  private static final String TOOLS =
      "\"tools\":["
          + tool("region_tool", "{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}")
          + ","
          + tool("plain_tool", "{\"q\":{\"type\":\"string\"}}")
          + ","
          + tool("space_header", "{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Bad Name\"}}")
          + ","
          + tool("object_header", "{\"a\":{\"type\":\"object\",\"x-mcp-header\":\"Obj\"}}")
          + ","
          + tool(
              "duplicate_header",
              "{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Dup\"},"
                  + "\"b\":{\"type\":\"string\",\"x-mcp-header\":\"dup\"}}")
          + "]";

  private static String tool(String name, String properties) {
    return "{\"name\":\""
        + name
        + "\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
        + properties
        + "}}";
  }

  @Test
  void aModernClientLeavesToolsWithInvalidHeaderAnnotationsOutOfTheList() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, "{\"resultType\":\"complete\"," + TOOLS + "}"));
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      assertThat(c.tools()).extracting(Tool::name).containsExactly("region_tool", "plain_tool");
      assertThat(c.listTools()).extracting(Tool::name).containsExactly("region_tool", "plain_tool");
    }
  }

  @Test
  void aHandshakeEraClientExposesTheWholeList() throws Exception {
    ModernPeer peer = ModernPeer.legacy(r -> null);
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, "{" + TOOLS + "}"));
    try (McpClient c =
        McpClient.builder().eras(EraPreference.HANDSHAKE_ONLY).connect(peer.clientEnd())) {
      assertThat(c.tools())
          .extracting(Tool::name)
          .containsExactly(
              "region_tool", "plain_tool", "space_header", "object_header", "duplicate_header");
    }
  }
}
