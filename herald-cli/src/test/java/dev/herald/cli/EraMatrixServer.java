package dev.herald.cli;

import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A test-only stdio server for the era matrix, serving the eras named by {@code -Dmatrix.eras}
 * ({@link ServedEras} names; DUAL by default). Its {@code steps} tool reports progress, {@code ask}
 * asks for input, {@code grow} adds a tool. Every request that reaches a handler is written to
 * stderr as {@code SEEN <method> <params._meta>}, so a test can check what its client sent.
 */
public final class EraMatrixServer {
  static final String SEEN = "SEEN ";

  private EraMatrixServer() {}

  public static void main(String[] args) throws Exception {
    ServedEras eras = ServedEras.valueOf(System.getProperty("matrix.eras", "DUAL"));
    AtomicReference<McpServer> self = new AtomicReference<>();
    AtomicInteger grown = new AtomicInteger();
    McpServer server =
        McpServer.builder()
            .info("era-matrix", "1")
            .eras(eras)
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .interceptor(chain -> {
              JsonNode params = chain.params();
              JsonNode meta = params == null ? null : params.get("_meta");
              System.err.println(
                  SEEN + chain.method() + " " + (meta == null ? "{}" : meta.toString()));
              return chain.proceed();
            })
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
                })
            .build();
    self.set(server);
    server.serveStdio();
  }
}
