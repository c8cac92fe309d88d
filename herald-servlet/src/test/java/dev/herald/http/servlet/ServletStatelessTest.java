package dev.herald.http.servlet;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The 2026-07-28 binding through {@link McpServlet} in a real servlet container (MCP 2026-07-28
 * basic/transports/streamable-http): the same endpoint code as Jetty core, so the rows that touch
 * the container (status and headers of a JSON answer, an SSE stream, cancellation by closing it,
 * a modern-only server's 405) are proved here again.
 */
class ServletStatelessTest {
  private static final String META =
      "'_meta':{'progressToken':'p','io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{}}";

  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch ended = new CountDownLatch(1);
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private McpServer mcp;
  private McpServlet servlet;
  private Server jetty;
  private URI uri;

  private void start(ServedEras eras) throws Exception {
    mcp =
        McpServer.builder()
            .eras(eras)
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("block").description("Runs until cancelled").build(),
                call -> {
                  call.context().progress().report(1, null, null);
                  started.countDown();
                  try {
                    release.await(20, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                  } finally {
                    ended.countDown();
                  }
                  return CallToolResult.text("released");
                })
            .build();
    servlet = McpServlet.builder().server(mcp).sseKeepAlive(Duration.ofSeconds(60)).build();
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
    uri = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/app/mcp");
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    if (jetty != null) {
      jetty.stop();
    }
  }

  private HttpRequest.Builder post(String method, String name, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(RawHttpClient.q(body)));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    return b;
  }

  private static String call(int id, String tool) {
    return "{'jsonrpc':'2.0','id':"
        + id
        + ",'method':'tools/call','params':{'name':'"
        + tool
        + "','arguments':{},"
        + META
        + "}}";
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private void assertNothingLeft() {
    eventually(() -> servlet.statelessCount() == 0, "every 2026 exchange ended");
    eventually(() -> mcp.sessions().isEmpty(), "every per-request server session closed");
    assertThat(servlet.sessionCount()).isZero();
  }

  @Test
  void aStatelessCallIsAnsweredWithoutASessionAndErrorsCarryTheirStatus() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> ok = send(post("tools/call", "quiet", call(1, "quiet")));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(ok.body()).contains("ok");

    HttpResponse<String> mismatch = send(post("tools/call", "block", call(2, "quiet")));
    assertThat(mismatch.statusCode()).isEqualTo(400);
    assertThat(json(mismatch.body()).get("error").get("code").asInt())
        .isEqualTo(ErrorCodes.HEADER_MISMATCH);

    HttpResponse<String> missing =
        send(
            post(
                "nothing/here",
                null,
                "{'jsonrpc':'2.0','id':3,'method':'nothing/here','params':{" + META + "}}"));
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(json(missing.body()).get("error").get("code").asInt())
        .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    assertNothingLeft();
  }

  @Test
  void closingTheStreamCancelsTheRequestAndFreesItsSession() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<Stream<String>> r =
        http.send(
            post("tools/call", "block", call(1, "block")).build(),
            HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
    SseReader sse = new SseReader(r.body());
    JsonNode first = sse.event().json();
    assertThat(first.get("method").asString()).isEqualTo("notifications/progress");
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(servlet.statelessCount()).isEqualTo(1);
    sse.close();
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(interrupted).isTrue();
    assertNothingLeft();
  }

  @Test
  void aModernOnlyServletAnswersGetAndDeleteWith405() throws Exception {
    start(ServedEras.MODERN_ONLY);
    HttpRequest.Builder get =
        HttpRequest.newBuilder(uri)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", "x")
            .GET();
    assertThat(send(get).statusCode()).isEqualTo(405);
    HttpRequest.Builder delete = HttpRequest.newBuilder(uri).header("Mcp-Session-Id", "x").DELETE();
    assertThat(send(delete).statusCode()).isEqualTo(405);
    assertThat(send(post("tools/call", "quiet", call(1, "quiet"))).statusCode()).isEqualTo(200);
    assertNothingLeft();
  }
}
