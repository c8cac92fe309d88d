package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.http.matrix.EraMatrix;
import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.server.ServerSession;
import dev.herald.session.Interceptor;
import dev.herald.testing.Eventually;
import dev.herald.testing.RawHttpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Tool;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The known era-routing mistakes of other runtimes, each shown absent with Herald's client and a
 * real Jetty server: a dual-era server never downgrades a modern client (its {@code
 * server/discover} is answered, no handshake happens); a client whose {@code server/discover} was
 * refused speaks only the handshake era afterwards (no 2026 {@code _meta} on any later request);
 * and a handshake-era client's GET on a dual-era server opens its stream (it is not 405).
 */
@Timeout(60)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class EraRoutingOverHttpTest {
  @Parameter ClientEngine engine;

  private McpHttpServer http;

  /** Every request that reached the server's handlers: its method and its params' {@code _meta}. */
  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  private record Seen(String method, JsonNode meta) {}

  @AfterEach
  void stop() {
    ClientEngine.closeAll();
    if (http != null) {
      http.close();
    }
  }

  private McpServer server(ServedEras eras) {
    Interceptor<ServerSession> recorder =
        chain -> {
          JsonNode params = chain.params();
          JsonNode meta = params == null ? null : params.get("_meta");
          seen.add(new Seen(chain.method(), meta == null ? McpJson.object() : meta));
          return chain.proceed();
        };
    return EraMatrix.server(eras, b -> b.interceptor(recorder));
  }

  @Test
  void aDualEraServerAnswersServerDiscoverSoAModernClientIsNeverDowngraded() throws Exception {
    http = McpHttpServer.builder().server(server(ServedEras.DUAL)).port(0).build().start();
    // A handshake-era client is already there: its session must not pull the modern one down.
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize();
    try (McpClient client = EraMatrix.client().connect(() -> engine.transport(http.uri()))) {
      assertThat(client.era()).isEqualTo(ProtocolVersion.Era.MODERN);
      assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.LATEST);
      assertThat(client.discoverResult()).isPresent();
      assertThat(client.callTool("steps", McpJson.object().put("n", 1)).firstText())
          .isEqualTo("did 1");
      assertThat(http.sessionCount())
          .as("only the old client's session: the modern client never initialized")
          .isEqualTo(1);
    }
  }

  @Test
  void aClientWhoseServerDiscoverWasRefusedSendsNoModernMetaAfterwards() throws Exception {
    http =
        McpHttpServer.builder().server(server(ServedEras.HANDSHAKE_ONLY)).port(0).build().start();
    try (McpClient client = EraMatrix.client().connect(() -> engine.transport(http.uri()))) {
      assertThat(client.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(client.discoverResult()).isEmpty();
      client.tools();
      assertThat(client.callTool("steps", McpJson.object().put("n", 2)).firstText())
          .isEqualTo("did 2");
      assertThat(client.callTool("ask", null).firstText()).isEqualTo("hello Ada");
      client.ping();
    }
    assertThat(seen).extracting(Seen::method).contains("tools/list", "tools/call");
    for (Seen s : seen) {
      assertThat(s.method())
          .as("no 2026 method after the fallback")
          .isNotEqualTo("server/discover");
      assertThat(
              s.meta().propertyNames().stream()
                  .filter(k -> k.startsWith("io.modelcontextprotocol/")))
          .as("the _meta of %s carries no 2026 per-request fields", s.method())
          .isEmpty();
    }
  }

  @Test
  void aHandshakeEraClientsGetOnADualEraServerOpensItsStreamAndCarriesListChanges()
      throws Exception {
    McpServer server = server(ServedEras.DUAL);
    http = McpHttpServer.builder().server(server).port(0).build().start();
    RawHttpClient raw = new RawHttpClient(http.uri());
    raw.initialize();
    HttpResponse<Stream<String>> get = raw.getResponse(null);
    try (Stream<String> body = get.body()) {
      assertThat(get.statusCode()).as("never 405 for a handshake-era client").isEqualTo(200);
      assertThat(get.headers().firstValue("Content-Type"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
    }

    List<String> changes = new CopyOnWriteArrayList<>();
    try (McpClient client =
        EraMatrix.client()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .onToolsListChanged(() -> changes.add("tools"))
            .connect(() -> engine.transport(http.uri()))) {
      assertThat(client.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      client.tools();
      // An unsolicited notification: it can only arrive on the client's GET stream.
      server.addTool(Tool.builder("late").build(), c -> CallToolResult.text("late"));
      Eventually.eventually(() -> !changes.isEmpty(), "the list change arrived on the GET stream");
      assertThat(client.tools()).extracting(Tool::name).contains("late");
    }
  }
}
