package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.internal.session.SessionEngine;
import dev.herald.wire.DiscoverResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** {@code server/discover}, a row of the server's table that exists in the 2026-07-28 era only. */
class ServerDiscoverTest {

  private static McpServer server() {
    return McpServer.builder()
        .info("discoverable", "2.0")
        .instructions("use the echo tool")
        .tool(Tool.builder("echo").build(), call -> dev.herald.wire.CallToolResult.text("echo"))
        .resource(
            Resource.of("test://a", "a", "text/plain"),
            ResourceHandler.text("text/plain", () -> "a"))
        .build();
  }

  private static ObjectNode modernParams() {
    ObjectNode meta =
        McpJson.object().put(MetaKeys.PROTOCOL_VERSION, ProtocolVersion.V2026_07_28.wire());
    meta.set(MetaKeys.CLIENT_CAPABILITIES, McpJson.object());
    return McpJson.object().set("_meta", meta);
  }

  @Test
  void aModernRequestIsAnsweredWithVersionsCapabilitiesServerInfoAndInstructions()
      throws Exception {
    McpServer server = server();
    MemoryTransport[] wire = MemoryTransport.pair();
    server.connect(wire[1]);
    SessionEngine client =
        SessionEngine.builder()
            .name("modern-client")
            .transport(wire[0])
            .requests(call -> McpJson.object())
            .build();
    client.start();
    try {
      DiscoverResult result =
          McpJson.resultFromTree(
              Peers.await(client.request(McpMethods.SERVER_DISCOVER, modernParams()).result()),
              DiscoverResult.class);

      assertThat(result.supportedVersions())
          .containsExactlyElementsOf(ProtocolVersion.supportedWire());
      assertThat(result.capabilities()).isEqualTo(server.capabilities());
      assertThat(result.capabilities().resources()).isNotNull();
      assertThat(result.instructions()).isEqualTo("use the echo tool");
      assertThat(result.serverInfo()).isEqualTo(server.info());
    } finally {
      client.close();
    }
  }

  @Test
  void aHandshakeEraSessionGetsMethodNotFound() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) { // initialized with 2025-11-25
      McpException plain = peer.error(McpMethods.SERVER_DISCOVER, McpJson.object());
      McpException withModernMeta = peer.error(McpMethods.SERVER_DISCOVER, modernParams());

      assertThat(plain.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(plain.getMessage())
          .isEqualTo(
              "Method not found: server/discover is not part of protocol version 2025-11-25");
      assertThat(withModernMeta.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    }
  }

  @Test
  void beforeInitializeARequestWithoutModernMetaGetsMethodNotFound() throws Exception {
    MemoryTransport[] wire = MemoryTransport.pair();
    server().connect(wire[1]);
    SessionEngine client =
        SessionEngine.builder()
            .name("legacy-client")
            .transport(wire[0])
            .requests(call -> McpJson.object())
            .build();
    client.start();
    try {
      assertThatThrownBy(() ->
              Peers.await(client.request(McpMethods.SERVER_DISCOVER, McpJson.object()).result()))
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND));
      // and without modern _meta the rest of the handshake era's rules hold: initialize first
      assertThatThrownBy(
              () -> Peers.await(client.request(McpMethods.TOOLS_LIST, McpJson.object()).result()))
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_REQUEST));
      // while a request that names 2026-07-28 in _meta needs no handshake at all
      assertThat(
              Peers.await(client.request(McpMethods.TOOLS_LIST, modernParams()).result())
                  .get("tools"))
          .hasSize(1);
    } finally {
      client.close();
    }
  }
}
