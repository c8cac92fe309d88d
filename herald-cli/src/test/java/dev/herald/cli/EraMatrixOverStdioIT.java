package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.http.matrix.EraMatrix;
import dev.herald.server.ServedEras;
import dev.herald.testing.Eventually;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The era matrix over stdio, with the server a real subprocess ({@link EraMatrixServer}): Herald's
 * client set to "latest" speaks 2026-07-28 with a dual-era or modern-only server and the
 * 2025-11-25 handshake with a handshake-only one; progress, input requests (MRTR in 2026, a reverse
 * request in the handshake era) and tool list changes (a listen in 2026, {@code list_changed} in
 * the handshake era) work in whichever era it negotiated.
 */
@Timeout(120)
class EraMatrixOverStdioIT {
  private final List<String> stderr = new CopyOnWriteArrayList<>();

  private McpClient connect(ServedEras eras) throws InterruptedException {
    return EraMatrix.client()
        .connect(
            SubprocessTransport.builder(
                    Cli.testMain(EraMatrixServer.class, "-Dmatrix.eras=" + eras.name()))
                .stderr(stderr::add)
                .build());
  }

  private List<JsonNode> seenMeta() {
    return stderr.stream()
        .filter(l -> l.startsWith(EraMatrixServer.SEEN))
        .map(l -> McpJson.mapper().readTree(l.substring(l.indexOf('{'))))
        .toList();
  }

  @ParameterizedTest(name = "a latest client with a {0} server")
  @EnumSource(ServedEras.class)
  void aLatestClientNegotiatesTheBestEraTheServerServesAndEverythingWorksInIt(ServedEras eras)
      throws Exception {
    try (McpClient client = connect(eras)) {
      EraMatrix.proves(client, eras);
    }
  }

  @Test
  void aClientWhoseServerDiscoverWasRefusedSendsNoModernMetaOnThePipeAfterwards() throws Exception {
    try (McpClient client = connect(ServedEras.HANDSHAKE_ONLY)) {
      assertThat(client.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      client.tools();
      assertThat(client.callTool("steps", McpJson.object().put("n", 2)).firstText())
          .isEqualTo("did 2");
      assertThat(client.callTool("ask", null).firstText()).isEqualTo("hello Ada");
      Eventually.eventually(() -> seenMeta().size() >= 3, "the server logged the requests");
    }
    assertThat(stderr).anyMatch(l -> l.startsWith(EraMatrixServer.SEEN + "initialize"));
    assertThat(stderr).anyMatch(l -> l.startsWith(EraMatrixServer.SEEN + "tools/call"));
    assertThat(stderr).noneMatch(l -> l.startsWith(EraMatrixServer.SEEN + "server/discover"));
    for (JsonNode meta : seenMeta()) {
      assertThat(
              meta.propertyNames().stream().filter(k -> k.startsWith("io.modelcontextprotocol/")))
          .as("no 2026 per-request _meta after the fallback: %s", meta)
          .isEmpty();
    }
  }

  @Test
  void aDualEraServerOnAPipeAnswersServerDiscoverSoAModernClientIsNeverDowngraded()
      throws Exception {
    try (McpClient client = connect(ServedEras.DUAL)) {
      assertThat(client.era()).isEqualTo(ProtocolVersion.Era.MODERN);
      assertThat(client.discoverResult()).isPresent();
      assertThat(client.callTool("steps", McpJson.object().put("n", 1)).firstText())
          .isEqualTo("did 1");
      Eventually.eventually(
          () -> stderr.stream().anyMatch(l -> l.startsWith(EraMatrixServer.SEEN + "tools/call")),
          "the server logged the call");
    }
    assertThat(stderr)
        .as("the modern client never needed the handshake")
        .noneMatch(l -> l.startsWith(EraMatrixServer.SEEN + "initialize"));
  }
}
