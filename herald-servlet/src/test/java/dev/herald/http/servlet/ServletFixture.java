package dev.herald.http.servlet;

import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@link McpServlet} mounted at {@code /app/mcp/*} in Jetty 12's ee10 servlet container on
 * 127.0.0.1:0, serving an {@link McpServer} with test tools, and a raw client on the JDK's
 * {@link HttpClient}.
 */
final class ServletFixture implements AutoCloseable {
  final McpServer mcp;
  final McpServlet servlet;
  private final Server jetty;
  final int port;

  ServletFixture() throws Exception {
    mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .tool(Tool.builder("quiet").description("Answers at once").build(), call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("steps").description("Logs, three progress steps, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  for (int i = 1; i <= 3; i++) {
                    call.context().progress().report(i, 3.0, null);
                  }
                  return CallToolResult.text("stepped");
                })
            .build();
    servlet = McpServlet.builder().server(mcp).build();
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    ServletHolder holder = new ServletHolder("mcp", servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp/*");
    jetty.setHandler(context);
    jetty.start();
    port = connector.getLocalPort();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + port + "/app/mcp");
  }

  Client client() {
    return new Client(uri());
  }

  void addTool(String name) {
    mcp.addTool(Tool.builder(name).description("added").build(), call -> CallToolResult.text(name));
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
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
      return send(request().POST(HttpRequest.BodyPublishers.ofString(body.replace('\'', '"'))));
    }

    HttpResponse<Stream<String>> send(HttpRequest.Builder b) throws IOException, InterruptedException {
      return http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
    }

    /** initialize + notifications/initialized; returns the initialize response. */
    HttpResponse<Stream<String>> initialize() throws IOException, InterruptedException {
      HttpResponse<Stream<String>> r =
          post("{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
              + "'clientInfo':{'name':'test','version':'1'}}}");
      session = r.headers().firstValue("Mcp-Session-Id").orElse(null);
      HttpResponse<Stream<String>> n = post("{'jsonrpc':'2.0','method':'notifications/initialized'}");
      body(n);
      if (n.statusCode() != 202) {
        throw new AssertionError("initialized: " + n.statusCode());
      }
      return r;
    }

    HttpResponse<Stream<String>> call(int id, String tool, @Nullable String progressToken) throws IOException, InterruptedException {
      String meta = progressToken == null ? "" : ",'_meta':{'progressToken':'" + progressToken + "'}";
      return post("{'jsonrpc':'2.0','id':" + id + ",'method':'tools/call','params':{'name':'" + tool + "','arguments':{}" + meta + "}}");
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

    SseReader get(@Nullable String lastEventId) throws IOException, InterruptedException {
      HttpResponse<Stream<String>> r = getResponse(lastEventId);
      if (r.statusCode() != 200) {
        throw new AssertionError("GET: " + r.statusCode() + " " + body(r));
      }
      return new SseReader(r.body());
    }

    static String body(HttpResponse<Stream<String>> r) {
      try (Stream<String> lines = r.body()) {
        return lines.collect(Collectors.joining("\n"));
      }
    }
  }
}
