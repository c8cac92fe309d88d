package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 Streamable HTTP binding over a real Jetty server (MCP 2026-07-28
 * basic/transports/streamable-http): era routing before any session, one fresh server session per
 * POST, the status table, the SEP-2243 headers, cancellation by closing the stream, keep-alive
 * comments, no resumption, and the three {@link ServedEras} modes.
 */
class StatelessHttpTest {
  private final CountDownLatch blockStarted = new CountDownLatch(1);
  private final AtomicBoolean blockInterrupted = new AtomicBoolean();
  private final CountDownLatch blockEnded = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private McpServer mcp;
  private McpHttpServer http;
  private Stateless26 client;

  // Quick answers are asserted to be plain JSON: the window before a 2026 answer turns into a
  // stream is raised from its default second, which a busy machine can exceed for any call.
  private void start(ServedEras eras) {
    start(eras, Duration.ofSeconds(15), Duration.ofSeconds(15));
  }

  private void start(ServedEras eras, Duration keepAlive) {
    start(eras, keepAlive, Duration.ofSeconds(1));
  }

  private int maxSessions = 1024;

  private void start(ServedEras eras, Duration keepAlive, Duration streamAfter) {
    ObjectNode props = McpJson.object();
    props.set("region", McpJson.object().put("type", "string").put("x-mcp-header", "Region"));
    props.set("priority", McpJson.object().put("type", "integer").put("x-mcp-header", "Priority"));
    props.set("flag", McpJson.object().put("type", "boolean").put("x-mcp-header", "Flag"));
    props.set("note", McpJson.object().put("type", "string"));
    ObjectNode regional = McpJson.object().put("type", "object");
    regional.set("properties", props);
    mcp =
        McpServer.builder()
            .eras(eras)
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("chatty").description("Logs, reports progress, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  call.context().progress().report(1, null, null);
                  return CallToolResult.text("chatted");
                })
            .tool(
                Tool.builder("regional").description("Echoes").inputSchema(regional).build(),
                call -> CallToolResult.text("regional " + call.arguments()))
            .tool(
                Tool.builder("needs_sampling").description("Needs a capability").build(),
                call -> {
                  ObjectNode data = McpJson.object();
                  data.putObject("requiredCapabilities").putObject("sampling");
                  throw new McpException(
                      ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                      "Missing required client capability: sampling",
                      data);
                })
            .tool(
                Tool.builder("block").description("Runs until cancelled").build(),
                call -> {
                  call.context().progress().report(1, null, null);
                  blockStarted.countDown();
                  try {
                    release.await(20, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    blockInterrupted.set(true);
                    throw e;
                  } finally {
                    blockEnded.countDown();
                  }
                  return CallToolResult.text("released");
                })
            .tool(
                Tool.builder("asks").description("Tries a 2025-style reverse call").build(),
                call -> {
                  var r =
                      call.context()
                          .sample(
                              dev.herald.wire.CreateMessageParams.of(
                                  List.of(dev.herald.wire.SamplingMessage.user("hi")), 10));
                  return CallToolResult.text("sampled " + r);
                })
            .tool(
                Tool.builder("quiet_then_answer").description("Waits silently").build(),
                call -> {
                  release.await(20, TimeUnit.SECONDS);
                  return CallToolResult.text("answered");
                })
            .build();
    http =
        McpHttpServer.builder()
            .server(mcp)
            .sseKeepAlive(keepAlive)
            .statelessStreamAfter(streamAfter)
            .maxSessions(maxSessions)
            .build()
            .start();
    client = new Stateless26(http.uri());
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (http != null) {
      http.close();
    }
  }

  private void assertNothingLeft() {
    eventually(() -> http.statelessCount() == 0, "every 2026 exchange ended");
    eventually(() -> mcp.sessions().isEmpty(), "every per-request server session closed");
    assertThat(http.sessionCount()).isZero();
  }

  /** Opens a 2026-07-28 call of {@code quiet_then_answer}, which answers once released. */
  private HttpResponse<Stream<String>> openQuietCall() throws IOException, InterruptedException {
    return client.open(
        Stateless26.headers("tools/call", "quiet_then_answer"),
        Stateless26.call(1, "quiet_then_answer", "{}"));
  }

  /** The last {@code data:} field of the rest of an SSE stream, read to its end. */
  private static @Nullable String lastData(java.util.Iterator<String> lines) {
    String data = null;
    while (lines.hasNext()) {
      String l = lines.next();
      if (l.startsWith("data: ")) {
        data = l.substring(6);
      }
    }
    return data;
  }

  private static JsonNode error(HttpResponse<String> r) {
    return json(r.body()).get("error");
  }

  // ---------------------------------------------------------------- the status table

  @Test
  void aStatelessCallIsAnsweredWithJsonAndNeitherMintsNorKeepsASession() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> r = client.call(1, "quiet");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(json(r.body()).get("id").asInt()).isEqualTo(1);
    assertThat(json(r.body()).toString()).contains("ok");
    assertNothingLeft();
  }

  @Test
  void aNotificationIsAcceptedWith202() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> r =
        client.post(
            Stateless26.headers("notifications/cancelled", null),
            "{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':9,"
                + Stateless26.META
                + "}}");
    assertThat(r.statusCode()).isEqualTo(202);
    assertThat(r.body()).isEmpty();
    assertNothingLeft();
  }

  @Test
  void aBadOriginIsRefusedWith403() throws Exception {
    start(ServedEras.DUAL);
    Map<String, String> h = Stateless26.headers("tools/call", "quiet");
    h.put("Origin", "http://evil.example");
    HttpResponse<String> r = client.post(h, Stateless26.call(1, "quiet", "{}"));
    assertThat(r.statusCode()).isEqualTo(403);
    assertNothingLeft();
  }

  @Test
  void aMissingMetaFieldIs400WithInvalidParamsAndTheRequestId() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> noMeta =
        client.post(
            Stateless26.headers("tools/list", null),
            "{'jsonrpc':'2.0','id':7,'method':'tools/list','params':{}}");
    assertThat(noMeta.statusCode()).isEqualTo(400);
    assertThat(error(noMeta).get("code").asInt()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(json(noMeta.body()).get("id").asInt()).isEqualTo(7);

    HttpResponse<String> noCaps =
        client.post(
            Stateless26.headers("tools/list", null),
            "{'jsonrpc':'2.0','id':8,'method':'tools/list','params':{'_meta':"
                + "{'io.modelcontextprotocol/protocolVersion':'2026-07-28'}}}");
    assertThat(noCaps.statusCode()).isEqualTo(400);
    assertThat(error(noCaps).get("code").asInt()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertNothingLeft();
  }

  @Test
  void anUnsupportedVersionIs400WithTheVersionsServedAndTheOneAskedFor() throws Exception {
    start(ServedEras.DUAL);
    Map<String, String> h = Stateless26.headers("tools/list", null);
    h.put("MCP-Protocol-Version", "2099-01-01");
    HttpResponse<String> r =
        client.post(
            h,
            "{'jsonrpc':'2.0','id':3,'method':'tools/list','params':{'_meta':"
                + "{'io.modelcontextprotocol/protocolVersion':'2099-01-01',"
                + "'io.modelcontextprotocol/clientCapabilities':{}}}}");
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode e = error(r);
    assertThat(e.get("code").asInt()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
    assertThat(e.get("data").get("requested").asString()).isEqualTo("2099-01-01");
    assertThat(e.get("data").get("supported").toString()).contains("2026-07-28");
    assertNothingLeft();
  }

  @Test
  void aMethodNotImplementedIs404AndAnUnknownToolStaysAnOrdinary200Error() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> r =
        client.post(
            Stateless26.headers("nothing/here", null),
            "{'jsonrpc':'2.0','id':4,'method':'nothing/here','params':{" + Stateless26.META + "}}");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(error(r).get("code").asInt()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    assertThat(json(r.body()).get("id").asInt()).isEqualTo(4);

    HttpResponse<String> init =
        client.post(
            Stateless26.headers("initialize", null),
            "{'jsonrpc':'2.0','id':5,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
                + "'capabilities':{},'clientInfo':{'name':'t','version':'1'},"
                + Stateless26.META
                + "}}");
    assertThat(init.statusCode()).isEqualTo(404);
    assertThat(init.headers().firstValue("Mcp-Session-Id")).isEmpty();

    HttpResponse<String> unknown = client.call(6, "no_such_tool");
    assertThat(unknown.statusCode()).isEqualTo(200);
    assertNothingLeft();
  }

  @Test
  void aMissingClientCapabilityIs400() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> r = client.call(1, "needs_sampling");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r).get("code").asInt())
        .isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
    assertNothingLeft();
  }

  // ---------------------------------------------------------------- SEP-2243 headers

  private void assertHeaderMismatch(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r).get("code").asInt()).isEqualTo(ErrorCodes.HEADER_MISMATCH);
    assertThat(json(r.body()).get("id").isNull()).isFalse();
  }

  @Test
  void theVersionHeaderMustMatchMeta() throws Exception {
    start(ServedEras.DUAL);
    Map<String, String> missing = Stateless26.headers("tools/call", "quiet");
    missing.remove("MCP-Protocol-Version");
    assertHeaderMismatch(client.post(missing, Stateless26.call(1, "quiet", "{}")));

    Map<String, String> other = Stateless26.headers("tools/call", "quiet");
    other.put("MCP-Protocol-Version", "2025-11-25");
    assertHeaderMismatch(client.post(other, Stateless26.call(2, "quiet", "{}")));
    assertNothingLeft();
  }

  @Test
  void theMethodHeaderIsRequiredAndCaseSensitiveWhileItsNameIsNot() throws Exception {
    start(ServedEras.DUAL);
    Map<String, String> none = Stateless26.headers("tools/call", "quiet");
    none.remove("Mcp-Method");
    assertHeaderMismatch(client.post(none, Stateless26.call(1, "quiet", "{}")));

    Map<String, String> upper = Stateless26.headers("TOOLS/CALL", "quiet");
    assertHeaderMismatch(client.post(upper, Stateless26.call(2, "quiet", "{}")));

    Map<String, String> lowerName = Stateless26.headers("tools/call", "quiet");
    lowerName.remove("Mcp-Method");
    lowerName.put("mcp-method", "tools/call");
    assertThat(client.post(lowerName, Stateless26.call(3, "quiet", "{}")).statusCode())
        .isEqualTo(200);
    assertNothingLeft();
  }

  @Test
  void aNameHeaderThatDisagreesWithTheBodyIsRefused() throws Exception {
    start(ServedEras.DUAL);
    assertHeaderMismatch(
        client.post(
            Stateless26.headers("tools/call", "chatty"), Stateless26.call(1, "quiet", "{}")));
    Map<String, String> none = Stateless26.headers("tools/call", null);
    assertHeaderMismatch(client.post(none, Stateless26.call(2, "quiet", "{}")));
    HttpResponse<String> read =
        client.post(
            Stateless26.headers("resources/read", "file:///other"),
            "{'jsonrpc':'2.0','id':3,'method':'resources/read','params':{'uri':'file:///a',"
                + Stateless26.META
                + "}}");
    assertHeaderMismatch(read);
    assertNothingLeft();
  }

  @Test
  void aNameHeaderMayUseTheBase64FormForANameThatIsNotPlainAscii() throws Exception {
    start(ServedEras.DUAL);
    String name = "caf\u00e9";
    String encoded =
        "=?base64?"
            + Base64.getEncoder().encodeToString(name.getBytes(StandardCharsets.UTF_8))
            + "?=";
    // what Herald's client sends for it (McpHeaders.encode): the header agrees with the body, so
    // the call is dispatched (an unknown tool: a JSON-RPC error on 200, not a 400 -32020)
    HttpResponse<String> call =
        client.post(Stateless26.headers("tools/call", encoded), Stateless26.call(1, name, "{}"));
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(McpJson.mapper().readTree(call.body()).path("error").path("code").asInt())
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
    String other =
        "=?base64?"
            + Base64.getEncoder().encodeToString("cafe".getBytes(StandardCharsets.UTF_8))
            + "?=";
    assertHeaderMismatch(
        client.post(Stateless26.headers("tools/call", other), Stateless26.call(2, name, "{}")));
    assertNothingLeft();
  }

  private Map<String, String> regionalHeaders(String region, String priority) {
    Map<String, String> h = Stateless26.headers("tools/call", "regional");
    h.put("Mcp-Param-Region", region);
    if (priority != null) {
      h.put("Mcp-Param-Priority", priority);
    }
    return h;
  }

  @Test
  void annotatedArgumentsMustBeMirroredInParamHeaders() throws Exception {
    start(ServedEras.DUAL);
    String args = "{'region':'us-west1','priority':42,'note':'free'}";
    HttpResponse<String> ok =
        client.post(regionalHeaders("us-west1", "42"), Stateless26.call(1, "regional", args));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("us-west1");

    // tampered: the header says one thing, the body another
    assertHeaderMismatch(
        client.post(regionalHeaders("eu-west1", "42"), Stateless26.call(2, "regional", args)));
    // missing while the body has the value
    assertHeaderMismatch(
        client.post(regionalHeaders("us-west1", null), Stateless26.call(3, "regional", args)));
    // present while the body has no value
    Map<String, String> extra = regionalHeaders("us-west1", "42");
    extra.put("Mcp-Param-Flag", "true");
    assertHeaderMismatch(client.post(extra, Stateless26.call(4, "regional", args)));
    // header names are case-insensitive
    Map<String, String> lower = Stateless26.headers("tools/call", "regional");
    lower.put("mcp-param-region", "us-west1");
    lower.put("MCP-PARAM-PRIORITY", "42");
    assertThat(client.post(lower, Stateless26.call(5, "regional", args)).statusCode())
        .isEqualTo(200);
    // values are case-sensitive
    assertHeaderMismatch(
        client.post(regionalHeaders("US-WEST1", "42"), Stateless26.call(6, "regional", args)));
    assertNothingLeft();
  }

  @Test
  void integersAreComparedNumericallyAndBooleansAsText() throws Exception {
    start(ServedEras.DUAL);
    String args = "{'region':'r','priority':42,'flag':false}";
    Map<String, String> h = regionalHeaders("r", "42.0");
    h.put("Mcp-Param-Flag", "false");
    assertThat(client.post(h, Stateless26.call(1, "regional", args)).statusCode()).isEqualTo(200);
    Map<String, String> wrong = regionalHeaders("r", "43");
    wrong.put("Mcp-Param-Flag", "false");
    assertHeaderMismatch(client.post(wrong, Stateless26.call(2, "regional", args)));
    Map<String, String> notNumber = regionalHeaders("r", "forty-two");
    notNumber.put("Mcp-Param-Flag", "false");
    assertHeaderMismatch(client.post(notNumber, Stateless26.call(3, "regional", args)));
    assertNothingLeft();
  }

  @Test
  void base64ValuesAreDecodedStrictlyAndOtherValuesAreLiteral() throws Exception {
    start(ServedEras.DUAL);
    String hello = Base64.getEncoder().encodeToString("Hello, 世界".getBytes(StandardCharsets.UTF_8));
    String args = "{'region':'Hello, 世界','priority':1}";
    assertThat(
            client
                .post(
                    regionalHeaders("=?base64?" + hello + "?=", "1"),
                    Stateless26.call(1, "regional", args))
                .statusCode())
        .isEqualTo(200);
    String plain = "{'region':'Hello','priority':1}";
    // unpadded and non-alphabet Base64 are refused
    assertHeaderMismatch(
        client.post(
            regionalHeaders("=?base64?SGVsbG8?=", "1"), Stateless26.call(2, "regional", plain)));
    assertHeaderMismatch(
        client.post(
            regionalHeaders("=?base64?SGVs!!!bG8=?=", "1"),
            Stateless26.call(3, "regional", plain)));
    // without the wrapper the value is literal
    String literal = "{'region':'SGVsbG8=','priority':1}";
    assertThat(
            client
                .post(regionalHeaders("SGVsbG8=", "1"), Stateless26.call(4, "regional", literal))
                .statusCode())
        .isEqualTo(200);
    assertNothingLeft();
  }

  @Test
  void aHeaderValueWithAnInvalidCharacterIsRefused() throws Exception {
    start(ServedEras.DUAL);
    String body =
        RawHttpClient.q(Stateless26.call(1, "regional", "{'region':'caf\u00e9','priority':1}"));
    String head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
            + http.port()
            + "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
            + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: regional\r\n"
            + "Mcp-Param-Priority: 1\r\n";
    try (Socket s = new Socket("127.0.0.1", http.port())) {
      s.setSoTimeout(10_000);
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write("Mcp-Param-Region: caf".getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[] {(byte) 0xc3, (byte) 0xa9});
      out.write(
          ("\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(b);
      out.flush();
      String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(text).startsWith("HTTP/1.1 400");
      assertThat(text).contains(Integer.toString(ErrorCodes.HEADER_MISMATCH));
    }
    assertNothingLeft();
  }

  // ---------------------------------------------------------------- streams

  @Test
  void requestBoundNotificationsRideTheRequestsStreamWithoutEventIdsOrRetry() throws Exception {
    start(ServedEras.DUAL);
    Map<String, String> h = Stateless26.headers("tools/call", "chatty");
    h.put("Last-Event-ID", "123_4"); // irrelevant to a 2026 exchange
    HttpResponse<Stream<String>> r =
        client.open(
            h,
            "{'jsonrpc':'2.0','id':11,'method':'tools/call','params':{'name':'chatty','arguments':{},"
                + "'_meta':{'progressToken':'p1','io.modelcontextprotocol/protocolVersion':'2026-07-28',"
                + "'io.modelcontextprotocol/logLevel':'debug',"
                + "'io.modelcontextprotocol/clientCapabilities':{}}}}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    List<String> lines = r.body().toList();
    assertThat(lines).noneMatch(l -> l.startsWith("id:") || l.startsWith("retry:"));
    List<JsonNode> events = new ArrayList<>();
    for (String l : lines) {
      if (l.startsWith("data: ")) {
        events.add(json(l.substring(6)));
      }
    }
    assertThat(events)
        .extracting(e -> e.path("method").asString(""))
        .contains("notifications/progress");
    JsonNode last = events.get(events.size() - 1);
    assertThat(last.get("id").asInt()).isEqualTo(11);
    assertThat(last.toString()).contains("chatted");
    assertNothingLeft();
  }

  @Test
  void aServerRequestIsNeverWrittenToAStatelessStreamAndItsCallerFailsAtOnce() throws Exception {
    start(ServedEras.DUAL);
    HttpResponse<String> r =
        client.post(
            Stateless26.headers("tools/call", "asks"),
            "{'jsonrpc':'2.0','id':1,'method':'tools/call','params':{'name':'asks','arguments':{},"
                + "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
                + "'io.modelcontextprotocol/clientCapabilities':{'sampling':{}}}}}");
    // one JSON answer to the call itself: no request of the server's went out before it
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(json(r.body()).has("method")).isFalse();
    assertThat(json(r.body()).get("id").asInt()).isEqualTo(1);
    assertNothingLeft();
  }

  @Test
  void statelessRequestsInProgressAreBoundedApartFromSessions() throws Exception {
    maxSessions = 1;
    start(ServedEras.DUAL);
    HttpResponse<Stream<String>> first =
        client.open(
            Stateless26.headers("tools/call", "block"),
            "{'jsonrpc':'2.0','id':1,'method':'tools/call','params':{'name':'block','arguments':{},"
                + "'_meta':{'progressToken':'b','io.modelcontextprotocol/protocolVersion':'2026-07-28',"
                + "'io.modelcontextprotocol/clientCapabilities':{}}}}");
    assertThat(blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    HttpResponse<String> second = client.call(2, "quiet");
    assertThat(second.statusCode()).isEqualTo(503);
    assertThat(error(second).get("code").asInt()).isEqualTo(ErrorCodes.LIMIT_EXCEEDED);
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize(); // the handshake client's slot is its own
    release.countDown();
    assertThat(first.body().toList()).anyMatch(l -> l.contains("released"));
    eventually(() -> http.statelessCount() == 0, "every 2026 exchange ended");
    assertThat(client.call(3, "quiet").statusCode()).isEqualTo(200);
  }

  @Test
  void closingTheStreamCancelsTheRequestAndFreesItsSession() throws Exception {
    start(ServedEras.DUAL, Duration.ofSeconds(60));
    HttpResponse<Stream<String>> r =
        client.open(
            Stateless26.headers("tools/call", "block"),
            "{'jsonrpc':'2.0','id':1,'method':'tools/call','params':{'name':'block','arguments':{},"
                + "'_meta':{'progressToken':'b','io.modelcontextprotocol/protocolVersion':'2026-07-28',"
                + "'io.modelcontextprotocol/clientCapabilities':{}}}}");
    assertThat(r.statusCode()).isEqualTo(200);
    SseReader sse = new SseReader(r.body());
    assertThat(sse.event().json().get("method").asString()).isEqualTo("notifications/progress");
    assertThat(blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(http.statelessCount()).isEqualTo(1);
    assertThat(mcp.sessions()).hasSize(1);
    sse.close(); // the client goes away: that is the cancellation
    assertThat(blockEnded.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(blockInterrupted).isTrue();
    assertNothingLeft();
  }

  @Test
  void closingTheConnectionBeforeAnythingWasWrittenCancelsTooAndNothingMoreIsSent()
      throws Exception {
    start(ServedEras.DUAL, Duration.ofSeconds(60));
    String body = RawHttpClient.q(Stateless26.call(1, "block", "{}"));
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket("127.0.0.1", http.port())) {
      s.getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                      + http.port()
                      + "\r\nAccept: application/json, text/event-stream\r\n"
                      + "Content-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                      + "Mcp-Method: tools/call\r\nMcp-Name: block\r\nContent-Length: "
                      + b.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(b);
      s.getOutputStream().flush();
      assertThat(blockStarted.await(10, TimeUnit.SECONDS)).isTrue();
    } // closed with nothing received: the request is cancelled
    assertThat(blockEnded.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(blockInterrupted).isTrue();
    assertNothingLeft();
  }

  @Test
  void aLongQuietCallGetsKeepAliveCommentsThenItsAnswer() throws Exception {
    start(ServedEras.DUAL, Duration.ofMillis(50));
    HttpResponse<Stream<String>> r = openQuietCall();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
    var lines = r.body().iterator();
    int comments = 0;
    while (comments < 2) {
      String l = lines.next();
      if (l.startsWith(":")) {
        comments++;
      } else {
        assertThat(l).isEmpty();
      }
    }
    release.countDown();
    assertThat(lastData(lines)).contains("answered");
    assertNothingLeft();
  }

  @Test
  void aShorterStreamWindowTurnsAQuietCallIntoAStreamWhateverTheKeepAlive() throws Exception {
    start(ServedEras.DUAL, Duration.ofSeconds(60), Duration.ofMillis(50));
    HttpResponse<Stream<String>> r = openQuietCall();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    var lines = r.body().iterator();
    String first = lines.next();
    while (first.isEmpty()) {
      first = lines.next();
    }
    assertThat(first).startsWith(":"); // a keep-alive comment long before the 60 s interval
    release.countDown();
    assertThat(lastData(lines)).contains("answered");
    assertNothingLeft();
  }

  @Test
  void aStreamWindowThatIsNotPositiveIsRefusedAtBuild() {
    assertThatThrownBy(() -> McpHttpServer.builder().statelessStreamAfter(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("statelessStreamAfter");
  }

  // ---------------------------------------------------------------- eras

  @Test
  void aDualServerServesAHandshakeClientExactlyAsBeforeBesideStatelessRequests() throws Exception {
    start(ServedEras.DUAL);
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize();
    assertThat(http.sessionCount()).isEqualTo(1);
    HttpResponse<Stream<String>> get = old.getResponse(null);
    assertThat(get.statusCode()).isEqualTo(200); // never 405 for a handshake client
    get.body().close();
    assertThat(client.call(1, "quiet").statusCode()).isEqualTo(200);
    HttpResponse<String> modernGet =
        client.http.send(
            HttpRequest.newBuilder(http.uri())
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(modernGet.statusCode()).isEqualTo(405); // POST only in the 2026 era
    assertThat(modernGet.headers().firstValue("Allow")).hasValue("POST");
    HttpResponse<String> call =
        old.sendForString(
            old.request()
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        RawHttpClient.q(
                            "{'jsonrpc':'2.0','id':2,'method':'tools/call','params':{'name':'quiet','arguments':{}}}"))));
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.body()).contains("ok");
    HttpResponse<String> delete = old.sendForString(old.request().DELETE());
    assertThat(delete.statusCode()).isEqualTo(200);
    eventually(() -> http.sessionCount() == 0, "the handshake session ended");
    assertNothingLeft();
  }

  @Test
  void serverDiscoverIsRoutedToTheModernEraEvenWithAHandshakeSessionIdBeside() throws Exception {
    start(ServedEras.DUAL);
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize();
    Map<String, String> h = Stateless26.headers("server/discover", null);
    h.put("Mcp-Session-Id", old.session); // era routing comes before any session lookup
    HttpResponse<String> r =
        client.post(
            h,
            "{'jsonrpc':'2.0','id':1,'method':'server/discover','params':{"
                + Stateless26.META
                + "}}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(json(r.body()).get("result").get("supportedVersions").toString())
        .contains("2026-07-28");
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(http.sessionCount()).isEqualTo(1);
    eventually(() -> http.statelessCount() == 0, "every 2026 exchange ended");
  }

  @Test
  void badStatelessInputCostsAHandshakeSessionNothing() throws Exception {
    start(ServedEras.DUAL);
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize();
    for (int i = 0; i < 20; i++) {
      Map<String, String> h = Stateless26.headers("tools/call", "wrong");
      h.put("Mcp-Session-Id", old.session); // a stateless request never reaches the session
      assertHeaderMismatch(client.post(h, Stateless26.call(i, "quiet", "{}")));
    }
    assertThat(http.sessionCount()).isEqualTo(1);
    HttpResponse<String> call =
        old.sendForString(
            old.request()
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        RawHttpClient.q(
                            "{'jsonrpc':'2.0','id':2,'method':'tools/call','params':{'name':'quiet','arguments':{}}}"))));
    assertThat(call.statusCode()).isEqualTo(200);
    eventually(() -> http.statelessCount() == 0, "every 2026 exchange ended");
    eventually(() -> mcp.sessions().size() == 1, "only the handshake session is left");
  }

  @Test
  void aModernOnlyServerRefusesGetDeleteAndInitializeAndIgnoresSessionIds() throws Exception {
    start(ServedEras.MODERN_ONLY);
    RawHttpClient old = new RawHttpClient(http.uri());
    HttpResponse<Stream<String>> init =
        old.post(
            "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
                + "'capabilities':{},'clientInfo':{'name':'t','version':'1'}}}");
    assertThat(init.statusCode()).isEqualTo(400);
    assertThat(init.headers().firstValue("Mcp-Session-Id")).isEmpty();
    JsonNode e = json(RawHttpClient.body(init)).get("error");
    assertThat(e.get("code").asInt()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
    assertThat(e.get("data").get("supported").toString()).contains("2026-07-28");
    old.session = "made-up";
    assertThat(old.getResponse(null).statusCode()).isEqualTo(405);
    assertThat(old.sendForString(old.request().DELETE()).statusCode()).isEqualTo(405);
    HttpResponse<String> legacySse =
        old.sendForString(
            HttpRequest.newBuilder(http.legacySseUri())
                .header("Accept", "text/event-stream")
                .GET());
    assertThat(legacySse.statusCode()).isEqualTo(404); // no HTTP+SSE (2024-11-05) either

    Map<String, String> h = Stateless26.headers("tools/call", "quiet");
    h.put("Mcp-Session-Id", "made-up");
    HttpResponse<String> r = client.post(h, Stateless26.call(1, "quiet", "{}"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertNothingLeft();
  }

  @Test
  void aHandshakeOnlyServerRefusesStatelessRequestsNamingItsVersions() throws Exception {
    start(ServedEras.HANDSHAKE_ONLY);
    HttpResponse<String> r = client.call(1, "quiet");
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode e = error(r);
    assertThat(e.get("code").asInt()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
    assertThat(e.get("data").get("supported").toString())
        .contains("2025-11-25")
        .doesNotContain("2026-07-28");
    assertThat(e.get("data").get("requested").asString()).isEqualTo("2026-07-28");
    RawHttpClient old = new RawHttpClient(http.uri());
    old.initialize();
    assertThat(old.getResponse(null).statusCode()).isEqualTo(200);
    assertNothingLeftButOneHandshakeSession();
  }

  private void assertNothingLeftButOneHandshakeSession() {
    eventually(() -> http.statelessCount() == 0, "every 2026 exchange ended");
    assertThat(http.sessionCount()).isEqualTo(1);
  }
}
