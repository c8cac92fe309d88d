package dev.herald.http.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.Subscription;
import dev.herald.client.SubscriptionListener;
import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.testing.Eventually;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * One cell of the era matrix: a Herald server serving some {@link ServedEras} and a Herald client
 * set to "latest". The server has a tool reporting progress ({@code steps}), one asking for input
 * ({@code ask}) and one changing the tool list ({@code grow}); {@link #proves} checks the era the
 * client negotiated and that all three work in it.
 *
 * <p>Shared with herald-servlet's tests through herald-http's test jar (only this package is in
 * it), so the same cell runs over Jetty and over the servlet.
 */
public final class EraMatrix {
  private EraMatrix() {}

  public static McpServer server(ServedEras eras) {
    return server(eras, b -> b);
  }

  /** The matrix server, with extra settings (an interceptor, say). */
  public static McpServer server(ServedEras eras, UnaryOperator<McpServer.Builder> extra) {
    AtomicReference<McpServer> self = new AtomicReference<>();
    AtomicInteger grown = new AtomicInteger();
    McpServer.Builder builder =
        McpServer.builder()
            .info("era-matrix", "1")
            .eras(eras)
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .tool(
                Tool.builder("steps").description("Reports progress for n steps").build(),
                call -> {
                  long n = call.integer("n", 3);
                  for (long i = 1; i <= n; i++) {
                    call.context().progress().report(i, (double) n, "step " + i);
                  }
                  return CallToolResult.text("did " + n);
                })
            .tool(
                Tool.builder("ask").description("Asks the user for a name").build(),
                call -> {
                  ObjectNode schema = McpJson.object().put("type", "object");
                  schema.putObject("properties").putObject("name").put("type", "string");
                  ElicitResult r = call.context().elicit(ElicitParams.form("name?", schema));
                  return CallToolResult.text("hello " + r.content().get("name").stringValue());
                })
            .tool(
                Tool.builder("grow").description("Adds a tool").build(),
                call -> {
                  String name = "grown-" + grown.incrementAndGet();
                  self.get().addTool(Tool.builder(name).build(), c -> CallToolResult.text(name));
                  return CallToolResult.text(name);
                });
    McpServer server = extra.apply(builder).build();
    self.set(server);
    return server;
  }

  public static McpClient.Builder client() {
    return McpClient.builder()
        .info("era-matrix-client", "1")
        .elicitation((p, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")));
  }

  /** The era a "latest" client must end up in with a server serving {@code eras}. */
  public static ProtocolVersion expected(ServedEras eras) {
    return eras == ServedEras.HANDSHAKE_ONLY
        ? ProtocolVersion.LATEST_LEGACY
        : ProtocolVersion.LATEST;
  }

  /**
   * Checks a connected client: the negotiated version and era, a call with progress, an input
   * request answered by the client's elicitation handler (MRTR in 2026, a reverse request in the
   * handshake era), and a tool list change delivered (a listen in 2026, {@code list_changed} in the
   * handshake era).
   */
  public static void proves(McpClient client, ServedEras eras) throws Exception {
    ProtocolVersion version = expected(eras);
    assertThat(client.protocolVersion()).isEqualTo(version);
    assertThat(client.era()).isEqualTo(version.era());
    assertThat(client.discoverResult().isPresent())
        .as("a discover result exactly when 2026 was negotiated")
        .isEqualTo(version.era() == ProtocolVersion.Era.MODERN);

    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    CallToolResult steps =
        client.callTool(
            "steps",
            McpJson.object().put("n", 4),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
    assertThat(steps.firstText()).isEqualTo("did 4");
    Eventually.eventually(
        () -> !updates.isEmpty() && updates.get(updates.size() - 1).progress() == 4.0,
        "the last progress update arrived");

    assertThat(client.callTool("ask", null).firstText())
        .as("the input request was answered by the elicitation handler")
        .isEqualTo("hello Ada");

    assertThat(client.tools()).extracting(Tool::name).contains("steps", "ask", "grow");
    List<McpClient.Area> changed = new CopyOnWriteArrayList<>();
    Subscription listen = null;
    if (version.era() == ProtocolVersion.Era.MODERN) {
      listen =
          client.listen(
              new SubscriptionFilter(true, null, null, null, null),
              new SubscriptionListener() {
                @Override
                public void listChanged(McpClient.Area area) {
                  changed.add(area);
                }
              });
      assertThat(listen.honoured().get(10, TimeUnit.SECONDS).wantsToolsListChanged())
          .as("the listen was acknowledged with tool list changes")
          .isTrue();
    } else {
      client.onListChanged(McpClient.Area.TOOLS, () -> changed.add(McpClient.Area.TOOLS));
    }
    try {
      String grown = client.callTool("grow", null).firstText();
      Eventually.eventually(
          () -> changed.contains(McpClient.Area.TOOLS), "the tool list change arrived");
      assertThat(client.tools()).extracting(Tool::name).contains(grown);
    } finally {
      if (listen != null) {
        listen.close();
      }
    }
  }
}
