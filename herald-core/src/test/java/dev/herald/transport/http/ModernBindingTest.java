package dev.herald.transport.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.transport.http.ScriptedServer.json;
import static dev.herald.transport.http.ScriptedServer.sse;
import static dev.herald.transport.http.ScriptedServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.transport.http.ScriptedServer.Request;
import dev.herald.transport.http.ScriptedServer.Responder;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The 2026-07-28 binding of {@link StreamableHttpClientTransport} (MCP 2026-07-28
 * basic/transports/streamable-http) against a real HTTP server on 127.0.0.1: the request metadata
 * headers, no session, no GET or DELETE, cancellation by closing the stream, and how refusals
 * reach the caller.
 */
@ParameterizedClass
@EnumSource(ClientEngine.class)
class ModernBindingTest {
  @Parameter ClientEngine engine;

  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private ScriptedServer server;
  private StreamableHttpClientTransport transport;
  private final RecordingReceiver receiver = new RecordingReceiver();

  @AfterEach
  void tearDown() {
    if (transport != null) {
      transport.close();
    }
    ClientEngine.closeAll();
    if (server != null) {
      server.close();
    }
    assertThat(receiver.overlapped).as("frames delivered concurrently").isFalse();
  }

  private static JsonRpcMessage msg(String json) {
    return ((DecodedMessage.Valid) MessageCodec.decode(json)).message();
  }

  private static String request(int id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\",\"params\":{"
        + params
        + (params.isEmpty() ? "" : ",")
        + META
        + "}}";
  }

  private static String result(JsonNode id, String result) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
  }

  private static JsonNode body(Request r) {
    return McpJson.mapper().readTree(r.body());
  }

  /** Answers every POST with an empty complete result, issuing a session id it must never see back. */
  private static Responder echo(Request r) {
    if (!r.method().equals("POST")) {
      return status(405);
    }
    return json(
        result(body(r).get("id"), "{\"resultType\":\"complete\"}"), "Mcp-Session-Id", "minted");
  }

  private StreamableHttpClientTransport connect(Function<Request, Responder> script)
      throws Exception {
    server = new ScriptedServer(script);
    transport = engine.transport(server.uri());
    transport.modern(ProtocolVersion.V2026_07_28);
    transport.start(receiver);
    return transport;
  }

  // ---------------------------------------------------------------- headers

  @Test
  void everyPostCarriesTheVersionOfItsBodyTheMethodAndTheName() throws Exception {
    connect(ModernBindingTest::echo);
    transport.send(
        msg(request(1, "tools/call", "\"name\":\"get_weather\",\"arguments\":{}")), null);
    Request call = server.next();
    assertThat(call.header("MCP-Protocol-Version")).isEqualTo("2026-07-28");
    assertThat(call.header("Mcp-Method")).isEqualTo("tools/call");
    assertThat(call.header("Mcp-Name")).isEqualTo("get_weather");
    assertThat(call.header("Accept")).contains("application/json").contains("text/event-stream");
    receiver.next();

    transport.send(msg(request(2, "resources/read", "\"uri\":\"file:///a%20b.txt?x=1\"")), null);
    Request read = server.next();
    assertThat(read.header("Mcp-Method")).isEqualTo("resources/read");
    assertThat(read.header("Mcp-Name")).isEqualTo("file:///a%20b.txt?x=1");
    receiver.next();

    transport.send(msg(request(3, "prompts/get", "\"name\":\"grüße\"")), null);
    Request prompt = server.next();
    assertThat(prompt.header("Mcp-Name")).isEqualTo("=?base64?Z3LDvMOfZQ==?=");
    receiver.next();

    transport.send(msg(request(5, "tasks/get", "\"taskId\":\"t-1\"")), null);
    assertThat(server.next().header("Mcp-Name")).as("tasks extension").isEqualTo("t-1");
    receiver.next();

    transport.send(msg(request(4, "tools/list", "")), null);
    Request list = server.next();
    assertThat(list.header("Mcp-Method")).isEqualTo("tools/list");
    assertThat(list.header("Mcp-Name")).isNull();
    receiver.next();
  }

  @Test
  void aJsonAnswerIsDeliveredWhereItWasReadNotHandedToTheCommonPool() throws Exception {
    connect(ModernBindingTest::echo);
    for (int id = 1; id <= 20; id++) {
      transport.send(msg(request(id, "tools/list", "")), null);
      receiver.next();
    }
    assertThat(receiver.threads)
        .as("threads the answers were delivered on")
        .hasSize(20)
        .noneMatch(name -> name.startsWith("ForkJoinPool"))
        .noneMatch(name -> name.startsWith("herald-http-post"));
    eventually(() -> transport.workerCount() == 0, "the exchanges' answers are handled");
  }

  @Test
  void theVersionHeaderIsTheBodysOwnAndTheModeVersionOnlyWhenTheBodyNamesNone() throws Exception {
    connect(ModernBindingTest::echo);
    transport.send(
        msg(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2027-01-01\"}}}"),
        null);
    assertThat(server.next().header("MCP-Protocol-Version")).isEqualTo("2027-01-01");
    receiver.next();
    transport.send(msg("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"server/discover\"}"), null);
    assertThat(server.next().header("MCP-Protocol-Version")).isEqualTo("2026-07-28");
    receiver.next();
  }

  @Test
  void noSessionIdIsEverSentAndClosingSendsNoDeleteAndNoGetIsOpened() throws Exception {
    connect(ModernBindingTest::echo);
    for (int id = 1; id <= 3; id++) {
      transport.send(msg(request(id, "tools/list", "")), null);
      assertThat(server.next().header("Mcp-Session-Id")).isNull();
      receiver.next();
    }
    transport.send(msg("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), null);
    server.next();
    transport.close();
    assertThat(transport.sessionId()).isEmpty();
    assertThat(server.requests).extracting(Request::method).containsOnly("POST");
    assertThat(server.requests).noneMatch(r -> r.header("Last-Event-ID") != null);
  }

  @Test
  void toolArgumentsMarkedWithXMcpHeaderAreMirroredOnceTheToolWasListed() throws Exception {
    String tools =
        "{\"resultType\":\"complete\",\"tools\":[{\"name\":\"sql\",\"inputSchema\":{\"type\":"
            + "\"object\",\"properties\":{"
            + "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
            + "\"priority\":{\"type\":\"integer\",\"x-mcp-header\":\"Priority\"},"
            + "\"verbose\":{\"type\":\"boolean\",\"x-mcp-header\":\"Verbose\"},"
            + "\"greeting\":{\"type\":\"string\",\"x-mcp-header\":\"Greeting\"},"
            + "\"padded\":{\"type\":\"string\",\"x-mcp-header\":\"Text\"},"
            + "\"empty\":{\"type\":\"string\",\"x-mcp-header\":\"Empty\"},"
            + "\"method\":{\"type\":\"string\",\"x-mcp-header\":\"Method\"},"
            + "\"target\":{\"type\":\"object\",\"properties\":{\"zone\":"
            + "{\"type\":\"string\",\"x-mcp-header\":\"Zone\"}}},"
            + "\"query\":{\"type\":\"string\"}}}}]}";
    connect(r -> {
      JsonNode b = body(r);
      return b.path("method").asString("").equals("tools/list")
          ? json(result(b.get("id"), tools))
          : echo(r);
    });
    transport.send(msg(request(1, "tools/list", "")), null);
    server.next();
    receiver.next();

    transport.send(
        msg(
            request(
                2,
                "tools/call",
                "\"name\":\"sql\",\"arguments\":{\"region\":\"us-west1\",\"priority\":42,"
                    + "\"verbose\":null,\"greeting\":\"Hello, 世界\",\"padded\":\" padded \","
                    + "\"empty\":\"\",\"method\":\"m\",\"target\":{\"zone\":\"b\"},"
                    + "\"query\":\"SELECT 1\"}")),
        null);
    Request call = server.next();
    assertThat(call.header("Mcp-Param-Region")).isEqualTo("us-west1");
    assertThat(call.header("Mcp-Param-Priority")).isEqualTo("42");
    assertThat(call.header("Mcp-Param-Verbose")).as("null is omitted").isNull();
    assertThat(call.header("Mcp-Param-Greeting")).isEqualTo("=?base64?SGVsbG8sIOS4lueVjA==?=");
    assertThat(call.header("Mcp-Param-Text")).isEqualTo("=?base64?IHBhZGRlZCA=?=");
    assertThat(call.header("Mcp-Param-Empty")).isEqualTo("");
    assertThat(call.header("Mcp-Param-Method")).isEqualTo("m");
    assertThat(call.header("Mcp-Method")).isEqualTo("tools/call");
    assertThat(call.header("Mcp-Param-Zone")).isEqualTo("b");
    assertThat(call.headers().keySet())
        .filteredOn(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("mcp-param-"))
        .hasSize(7);
    receiver.next();

    transport.send(
        msg(request(3, "tools/call", "\"name\":\"sql\",\"arguments\":{\"verbose\":false}")), null);
    Request second = server.next();
    assertThat(second.header("Mcp-Param-Verbose")).isEqualTo("false");
    assertThat(second.header("Mcp-Param-Region")).as("absent is omitted").isNull();
    receiver.next();
  }

  @Test
  void aToolTableSetByTheClientIsMirroredWithoutListing() throws Exception {
    connect(ModernBindingTest::echo);
    transport.learnTools(
        List.of(
            Tool.builder("deploy")
                .inputSchema(
                    (tools.jackson.databind.node.ObjectNode)
                        McpJson.mapper()
                            .readTree(
                                "{\"type\":\"object\",\"properties\":{\"env\":{\"type\":"
                                    + "\"string\",\"x-mcp-header\":\"Env\"}}}"))
                .build()));
    transport.send(
        msg(
            request(
                1, "tools/call", "\"name\":\"deploy\",\"arguments\":{\"env\":\"=?base64?x?=\"}")),
        null);
    assertThat(server.next().header("Mcp-Param-Env"))
        .as("a plain value that looks encoded is encoded")
        .isEqualTo("=?base64?PT9iYXNlNjQ/eD89?=");
    receiver.next();
  }

  // ---------------------------------------------------------------- streams and cancellation

  @Test
  void commentsOnTheResponseStreamAreIgnored() throws Exception {
    connect(r -> {
      JsonNode id = body(r).get("id");
      return sse(
          ":\n\n",
          ": keep-alive\n\n",
          "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
              + "{\"progressToken\":\"p\",\"progress\":1}}\n\n",
          ":\r\n",
          "data: " + result(id, "{\"resultType\":\"complete\"}") + "\n\n");
    });
    transport.send(msg(request(1, "tools/call", "\"name\":\"slow\"")), null);
    assertThat(receiver.next()).contains("notifications/progress");
    assertThat(receiver.next()).contains("\"id\":1").contains("complete");
    assertThat(receiver.all).hasSize(2);
  }

  @Test
  void aStreamThatEndsBeforeItsResponseFailsTheRequestAndIsNeverResumed() throws Exception {
    connect(r -> sse("id: 1\nretry: 10\ndata:\n\n"));
    transport.send(msg(request(7, "tools/call", "\"name\":\"x\"")), null);
    String error = receiver.next();
    assertThat(error).contains("\"id\":7").contains("-32603").contains("cannot be resumed");
    assertThat(server.requests).extracting(Request::method).containsOnly("POST");
  }

  @Test
  void cancellingARequestClosesItsStreamAndPostsNothing() throws Exception {
    CompletableFuture<Void> disconnected = new CompletableFuture<>();
    CompletableFuture<Void> streaming = new CompletableFuture<>();
    connect(r ->
        ex -> {
          ex.getResponseHeaders().set("Content-Type", "text/event-stream");
          ex.sendResponseHeaders(200, 0);
          OutputStream out = ex.getResponseBody();
          try {
            out.write(
                ("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                        + "{\"progressToken\":\"p\",\"progress\":1}}\n\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            streaming.complete(null);
            while (true) { // keep-alive comments until the client goes away
              out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
              out.flush();
              TimeUnit.MILLISECONDS.sleep(20);
            }
          } catch (IOException e) {
            disconnected.complete(null);
          }
        });
    transport.send(msg(request(5, "tools/call", "\"name\":\"forever\"")), null);
    streaming.get(5, TimeUnit.SECONDS);
    assertThat(receiver.next()).contains("notifications/progress");

    transport.send(
        msg(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                + "{\"requestId\":5,\"reason\":\"user\"}}"),
        null);
    disconnected.get(5, TimeUnit.SECONDS);
    assertThat(server.requests).hasSize(1);
    eventually(() -> transport.workerCount() == 0, "the exchange's worker ended");
    assertThat(receiver.all).hasSize(1);
  }

  @Test
  void cancellingBeforeTheServerAnsweredAbandonsTheExchange() throws Exception {
    CompletableFuture<Void> arrived = new CompletableFuture<>();
    CompletableFuture<Void> release = new CompletableFuture<>();
    connect(r ->
        ex -> {
          arrived.complete(null);
          release.get(5, TimeUnit.SECONDS);
          json(result(body(r).get("id"), "{}")).respond(ex);
        });
    transport.send(msg(request(9, "tools/call", "\"name\":\"slow\"")), null);
    arrived.get(5, TimeUnit.SECONDS);
    transport.send(
        msg(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9}}"),
        null);
    eventually(() -> transport.workerCount() == 0, "the exchange's worker ended");
    release.complete(null);
    assertThat(receiver.all).isEmpty();
    assertThat(server.requests).hasSize(1);
  }

  // ---------------------------------------------------------------- refusals

  @Test
  void aModernRefusalReachesTheCallerAsTheServersOwnError() throws Exception {
    connect(r ->
        json(
            400,
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32022,\"message\":"
                + "\"Unsupported protocol version\",\"data\":{\"supported\":[\"2026-07-28\"],"
                + "\"requested\":\"2027-01-01\"}}}"));
    transport.send(msg(request(1, "server/discover", "")), null);
    JsonRpcMessage.Error error = (JsonRpcMessage.Error) msg(receiver.next());
    assertThat(error.id()).hasToString("1");
    McpException e = McpException.fromError(error.error());
    assertThat(e.code()).isEqualTo(-32022);
    assertThat(e.data().get("supported").get(0).asString()).isEqualTo("2026-07-28");
    assertThat(StreamableHttpClientTransport.httpStatus(e)).isEmpty();
  }

  @Test
  void anOlderServersRefusalWithoutAJsonRpcBodyNamesItsStatus() throws Exception {
    connect(r ->
        ex -> {
          byte[] text = "Method Not Allowed".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(405, text.length);
          ex.getResponseBody().write(text);
        });
    transport.send(msg(request(1, "server/discover", "")), null);
    McpException e = McpException.fromError(((JsonRpcMessage.Error) msg(receiver.next())).error());
    assertThat(e.code()).isEqualTo(-32603);
    assertThat(e.getMessage()).contains("HTTP 405").contains("Method Not Allowed");
    assertThat(StreamableHttpClientTransport.httpStatus(e)).hasValue(405);
  }

  @Test
  void anOlderServersSessionErrorKeepsItsOwnCode() throws Exception {
    connect(r ->
        json(
            400,
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":"
                + "\"Bad Request: Server not initialized\"}}"));
    transport.send(msg(request(1, "server/discover", "")), null);
    McpException e = McpException.fromError(((JsonRpcMessage.Error) msg(receiver.next())).error());
    assertThat(e.code()).isEqualTo(-32000);
  }

  @Test
  void anEmpty404IsAnHttpStatusAndA404WithMethodNotFoundIsTheServersError() throws Exception {
    connect(r -> {
      JsonNode id = body(r).get("id");
      return id.asInt() == 1
          ? status(404)
          : json(
              404,
              "{\"jsonrpc\":\"2.0\",\"id\":"
                  + id
                  + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
    });
    transport.send(msg(request(1, "server/discover", "")), null);
    McpException first =
        McpException.fromError(((JsonRpcMessage.Error) msg(receiver.next())).error());
    assertThat(StreamableHttpClientTransport.httpStatus(first)).hasValue(404);
    transport.send(msg(request(2, "x/unknown", "")), null);
    McpException second =
        McpException.fromError(((JsonRpcMessage.Error) msg(receiver.next())).error());
    assertThat(second.code()).isEqualTo(-32601);
    assertThat(transport.isClosed()).as("no session to expire").isFalse();
  }

  // ---------------------------------------------------------------- the era switch

  @Test
  void fallingBackToTheHandshakeProbesWithInitializeAsOnAFreshTransport() throws Exception {
    connect(r -> {
      JsonNode b = body(r);
      return switch (b.path("method").asString("")) {
        case "server/discover" -> status(400);
        case "initialize" ->
            json(
                result(
                    b.get("id"),
                    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":"
                        + "{\"name\":\"old\",\"version\":\"1\"}}"),
                "Mcp-Session-Id",
                "old-session");
        default -> status(202);
      };
    });
    transport.send(msg(request(1, "server/discover", "")), null);
    receiver.next();
    transport.handshake();
    assertThat(transport.modernVersion()).isEmpty();
    transport.send(
        msg(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}"),
        null);
    server.next();
    Request init = server.next();
    assertThat(init.header("Mcp-Method")).isNull();
    receiver.next();
    assertThat(transport.sessionId()).hasValue("old-session");
    assertThatThrownBy(() -> transport.modern(ProtocolVersion.V2026_07_28))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void onlyAStatelessVersionSelectsTheModernBinding() {
    StreamableHttpClientTransport t =
        StreamableHttpClientTransport.builder()
            .uri(java.net.URI.create("http://127.0.0.1:1/mcp"))
            .build();
    assertThatThrownBy(() -> t.modern(ProtocolVersion.V2025_11_25))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> StreamableHttpClientTransport.builder().header("Mcp-Param-Region", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    t.close();
  }
}
