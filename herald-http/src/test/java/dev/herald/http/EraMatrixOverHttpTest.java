package dev.herald.http;

import dev.herald.client.McpClient;
import dev.herald.http.matrix.EraMatrix;
import dev.herald.server.ServedEras;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The era matrix over Streamable HTTP on a real Jetty server: Herald's client set to "latest"
 * speaks 2026-07-28 with a dual-era or modern-only server and the 2025-11-25 handshake with a
 * handshake-only one, and progress, input requests and list changes work in whichever era it
 * negotiated.
 */
@Timeout(60)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class EraMatrixOverHttpTest {
  @Parameter ClientEngine engine;

  private McpHttpServer http;

  @AfterEach
  void stop() {
    ClientEngine.closeAll();
    if (http != null) {
      http.close();
    }
  }

  @ParameterizedTest(name = "a latest client with a {0} server")
  @EnumSource(ServedEras.class)
  void aLatestClientNegotiatesTheBestEraTheServerServesAndEverythingWorksInIt(ServedEras eras)
      throws Exception {
    http = McpHttpServer.builder().server(EraMatrix.server(eras)).port(0).build().start();
    try (McpClient client = EraMatrix.client().connect(() -> engine.transport(http.uri()))) {
      EraMatrix.proves(client, eras);
    }
  }
}
