package dev.herald.http;

import dev.herald.server.McpServer;
import dev.herald.session.CountingEventListener;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A real {@link McpHttpServer} on 127.0.0.1:0 serving an {@link McpServer} with test tools, and
 * a raw client on the JDK {@link HttpClient}.
 */
final class Fixture implements AutoCloseable {
  final McpServer mcp;
  /** Every event of every session the server had (one listener shared by all). */
  final CountingEventListener events = new CountingEventListener();
  final McpHttpServer http;
  final CyclicBarrier lockstep = new CyclicBarrier(2);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicBoolean holdCancelled = new AtomicBoolean();
  final CountDownLatch holdFinished = new CountDownLatch(1);

  Fixture() {
    this(b -> b);
  }

  Fixture(UnaryOperator<McpHttpServer.Builder> settings) {
    mcp =
        McpServer.builder()
            .eventListener(events)
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .logRateLimit(100_000, 100_000)
            .tool(Tool.builder("quiet").description("Answers at once").build(), call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("lockstep").description("Three progress steps, in step with another call").build(),
                call -> {
                  for (int i = 1; i <= 3; i++) {
                    call.context().progress().report(i, 3.0, null);
                    lockstep.await(10, TimeUnit.SECONDS);
                  }
                  return CallToolResult.text("done " + call.context().requestId());
                })
            .tool(
                Tool.builder("chatty").description("Logs, reports progress, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  call.context().progress().report(1, null, null);
                  return CallToolResult.text("chatted");
                })
            .tool(
                Tool.builder("reconnect").description("Closes its own SSE stream, then answers").build(),
                call -> {
                  call.context().pollStream();
                  release.await(10, TimeUnit.SECONDS);
                  return CallToolResult.text("reconnected");
                })
            .tool(
                Tool.builder("hold").description("Waits for the test").build(),
                call -> {
                  try {
                    release.await(10, TimeUnit.SECONDS);
                  } finally {
                    holdCancelled.set(call.context().cancellation().isCancelled());
                    holdFinished.countDown();
                  }
                  return CallToolResult.text("held");
                })
            .build();
    http = settings.apply(McpHttpServer.builder().server(mcp)).build().start();
  }

  Client client() {
    return new Client(http.uri());
  }

  void addTool(String name) {
    mcp.addTool(Tool.builder(name).description("added").build(), call -> CallToolResult.text(name));
  }

  @Override
  public void close() {
    release.countDown();
    http.close();
  }

  /** A one-line description of a JSON-RPC message, for whole-sequence assertions. */
  static String describe(JsonNode m) {
    if (m.has("method")) {
      String method = m.get("method").asString();
      JsonNode p = m.get("params");
      return switch (method) {
        case "notifications/progress" -> "progress " + p.get("progressToken").asString() + " " + p.get("progress").asInt();
        case "notifications/message" -> "log " + p.get("data").asString();
        default -> method;
      };
    }
    if (m.has("error")) {
      return "error " + m.get("id") + " " + m.get("error").get("code").asInt();
    }
    return "result " + m.get("id") + " " + m.get("result").get("content").get(0).get("text").asString();
  }

  static JsonNode json(String text) {
    return McpJson.mapper().readTree(text);
  }

  /** A raw Streamable HTTP client: builds each request by hand. */
  static final class Client {
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    final URI uri;
    @Nullable String session;
    private int nextId = 1;

    Client(URI uri) {
      this.uri = uri;
    }

    HttpRequest.Builder request() {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(20))
              .header("Accept", "application/json, text/event-stream")
              .header("Content-Type", "application/json")
              .header("MCP-Protocol-Version", "2025-11-25");
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      return b;
    }

    HttpResponse<Stream<String>> post(String body) throws IOException, InterruptedException {
      return send(request().POST(HttpRequest.BodyPublishers.ofString(q(body))));
    }

    HttpResponse<Stream<String>> send(HttpRequest.Builder b) throws IOException, InterruptedException {
      return http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
    }

    HttpResponse<String> sendForString(HttpRequest.Builder b) throws IOException, InterruptedException {
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** initialize + notifications/initialized; returns the session id. */
    String initialize() throws IOException, InterruptedException {
      HttpResponse<Stream<String>> r =
          post("{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
              + "'clientInfo':{'name':'test','version':'1'}}}");
      if (r.statusCode() != 200) {
        throw new AssertionError("initialize: " + r.statusCode() + " " + body(r));
      }
      body(r);
      session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
      HttpResponse<Stream<String>> n = post("{'jsonrpc':'2.0','method':'notifications/initialized'}");
      body(n);
      if (n.statusCode() != 202) {
        throw new AssertionError("initialized: " + n.statusCode());
      }
      return session;
    }

    int nextId() {
      return nextId++;
    }

    /** Starts a tools/call and returns the response once its headers arrived. */
    HttpResponse<Stream<String>> call(int id, String tool, @Nullable String progressToken) throws IOException, InterruptedException {
      String meta = progressToken == null ? "" : ",'_meta':{'progressToken':'" + progressToken + "'}";
      return post("{'jsonrpc':'2.0','id':" + id + ",'method':'tools/call','params':{'name':'" + tool + "','arguments':{}" + meta + "}}");
    }

    /** Opens a GET stream, optionally resuming. */
    SseReader get(@Nullable String lastEventId) throws IOException, InterruptedException {
      HttpResponse<Stream<String>> r = getResponse(lastEventId);
      if (r.statusCode() != 200) {
        throw new AssertionError("GET: " + r.statusCode() + " " + body(r));
      }
      return new SseReader(r.body());
    }

    HttpResponse<Stream<String>> getResponse(@Nullable String lastEventId) throws IOException, InterruptedException {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET().timeout(Duration.ofSeconds(20))
          .header("Accept", "text/event-stream").header("MCP-Protocol-Version", "2025-11-25");
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      if (lastEventId != null) {
        b.header("Last-Event-ID", lastEventId);
      }
      return send(b);
    }

    static String body(HttpResponse<Stream<String>> r) {
      try (Stream<String> lines = r.body()) {
        return lines.collect(Collectors.joining("\n"));
      }
    }

    static String q(String s) {
      return s.replace('\'', '"');
    }
  }
}
