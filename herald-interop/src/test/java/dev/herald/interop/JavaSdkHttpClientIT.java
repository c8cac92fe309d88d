package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SubscribeRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official MCP Java SDK's sync client (2.1.0) over its Streamable HTTP client transport
 * ({@link HttpClientStreamableHttpTransport}) against Herald's {@link McpHttpServer} serving the
 * demo fixture in-process on 127.0.0.1:0 (a fresh server per test). A {@link SdkWiretap} under the
 * SDK's transport keeps every message in the order the SDK's transport handed it over, so
 * ordering and routing are checked on the wire, not only through the SDK's consumers.
 */
@Timeout(30)
class JavaSdkHttpClientIT {

  private McpHttpServer http;

  @BeforeEach
  void startHerald() {
    http =
        McpHttpServer.builder()
            .server(DemoFixture.server())
            .host("127.0.0.1")
            .port(0)
            .build()
            .start();
  }

  @AfterEach
  void stopHerald() {
    if (http != null) {
      http.close();
    }
  }

  /** What a test wants from the SDK client's builder. */
  private interface Spec extends Consumer<McpClient.SyncSpec> {}

  private record Peer(McpSyncClient client, SdkWiretap wire) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }

  private Peer connect(Spec spec) {
    var uri = http.uri();
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://" + uri.getHost() + ":" + uri.getPort())
            .endpoint(uri.getPath())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    SdkWiretap wire = new SdkWiretap(transport);
    McpClient.SyncSpec builder =
        McpClient.sync(wire)
            .clientInfo(new Implementation("java-sdk-http-client", "2.1.0"))
            .requestTimeout(Duration.ofSeconds(10))
            .initializationTimeout(Duration.ofSeconds(10));
    spec.accept(builder);
    McpSyncClient client = builder.build();
    try {
      client.initialize();
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    return new Peer(client, wire);
  }

  private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
    return client.callTool(new CallToolRequest(tool, args));
  }

  private static String text(CallToolResult r) {
    assertThat(r.isError()).as("tool error: %s", r.content()).isNotEqualTo(Boolean.TRUE);
    return ((TextContent) r.content().get(0)).text();
  }

  /**
   * A marker instead of a pause: {@code touch} of the prompts makes Herald send
   * notifications/prompts/list_changed after the same debounce as the tools one, on the stream where
   * session-level notifications go; once it is on the wire, any such notification sent before it is too.
   */
  private static void awaitMarker(Peer peer) {
    assertThat(text(call(peer.client(), "touch", Map.of("area", "prompts")))).isNotEmpty();
    peer.wire().awaitNotification("notifications/prompts/list_changed");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> params(Object params) {
    return params == null ? Map.of() : McpJsonDefaults.getMapper().convertValue(params, Map.class);
  }

  private static boolean isNotification(JSONRPCMessage m, String method) {
    return m instanceof JSONRPCNotification n && n.method().equals(method);
  }

  private static boolean isProgressFor(JSONRPCMessage m, String token) {
    return isNotification(m, "notifications/progress")
        && token.equals(params(((JSONRPCNotification) m).params()).get("progressToken"));
  }

  /** The id the SDK gave the (only) outbound request whose params carry this progress token. */
  private static Object requestIdWithToken(SdkWiretap wire, String token) {
    return wire.outbound.stream()
        .filter(m ->
            m instanceof JSONRPCRequest r
                && params(r.params()).get("_meta") instanceof Map<?, ?> meta
                && token.equals(meta.get("progressToken")))
        .map(m -> ((JSONRPCRequest) m).id())
        .reduce((a, b) -> {
          throw new AssertionError("two requests with token " + token);
        })
        .orElseThrow();
  }

  private static List<ProgressNotification> progressOnTheWire(SdkWiretap wire, String token) {
    return wire.inbound.stream()
        .filter(m -> isProgressFor(m, token))
        .map(m ->
            McpJsonDefaults.getMapper()
                .convertValue(((JSONRPCNotification) m).params(), ProgressNotification.class))
        .toList();
  }

  private static int indexOfResponse(List<JSONRPCMessage> messages, Object id) {
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i) instanceof JSONRPCResponse r && id.equals(r.id())) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void theSdkClientInitializesWithHeraldOverHttpAndListsItsTools() {
    try (Peer peer = connect(b -> {})) {
      McpSyncClient client = peer.client();
      assertThat(client.getServerInfo().name()).isEqualTo("herald-demo");
      assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
      assertThat(client.getServerCapabilities().tools().listChanged()).isTrue();
      assertThat(http.sessionCount()).as("one Mcp-Session-Id issued").isEqualTo(1);
      List<Tool> tools = client.listTools().tools();
      assertThat(tools)
          .extracting(Tool::name)
          .contains(
              "echo",
              "slow",
              "emit_logs",
              "touch",
              "update_resource",
              "test_sampling",
              "test_elicitation")
          .doesNotHaveDuplicates();
      assertThat(
              tools.stream()
                  .filter(t -> t.name().equals("echo"))
                  .findFirst()
                  .orElseThrow()
                  .inputSchema())
          .containsEntry("type", "object");
      assertThat(text(call(client, "echo", Map.of("text", "hello over http"))))
          .isEqualTo("hello over http");
      client.ping();
      assertThat(http.sessionCount()).as("every request in the one session").isEqualTo(1);
    }
  }

  @Test
  void progressForEachTokenRisesStrictlyEndsAtTheTotalBeforeTheResponseAndNeverCrossesCalls()
      throws Exception {
    List<ProgressNotification> seen = new CopyOnWriteArrayList<>();
    try (Peer peer = connect(b -> b.progressConsumer(seen::add));
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      McpSyncClient client = peer.client();
      // Two calls at once, each with its own token and its own POST (and so its own SSE stream).
      // Not on the common pool: on two cores it has one worker, and a sync SDK call blocking that
      // worker never got its response over the SDK's HTTP transport (2.1.0; over stdio it does).
      CompletableFuture<CallToolResult> a =
          CompletableFuture.supplyAsync(
              () ->
                  client.callTool(
                      CallToolRequest.builder("slow")
                          .arguments(Map.of("steps", 5, "delayMs", 40))
                          .progressToken("sdk-a")
                          .build()),
              callers);
      CompletableFuture<CallToolResult> b =
          CompletableFuture.supplyAsync(
              () ->
                  client.callTool(
                      CallToolRequest.builder("slow")
                          .arguments(Map.of("steps", 8, "delayMs", 25))
                          .progressToken("sdk-b")
                          .build()),
              callers);
      assertThat(text(a.get(15, TimeUnit.SECONDS))).isEqualTo("completed 5 steps");
      assertThat(text(b.get(15, TimeUnit.SECONDS))).isEqualTo("completed 8 steps");

      for (var expect : List.of(Map.entry("sdk-a", 5.0), Map.entry("sdk-b", 8.0))) {
        String token = expect.getKey();
        double total = expect.getValue();
        List<ProgressNotification> wire = progressOnTheWire(peer.wire(), token);
        assertThat(wire).as("progress for %s", token).isNotEmpty();
        assertThat(wire)
            .extracting(ProgressNotification::progress)
            .isSorted()
            .doesNotHaveDuplicates();
        assertThat(wire).allSatisfy(p -> assertThat(p.total()).isEqualTo(total));
        assertThat(wire.get(wire.size() - 1).progress()).isEqualTo(total);
        Object id = requestIdWithToken(peer.wire(), token);
        List<JSONRPCMessage> inbound = List.copyOf(peer.wire().inbound);
        int lastProgress = -1;
        for (int i = 0; i < inbound.size(); i++) {
          if (isProgressFor(inbound.get(i), token)) {
            lastProgress = i;
          }
        }
        assertThat(lastProgress)
            .as("the last progress of %s precedes its response", token)
            .isLessThan(indexOfResponse(inbound, id));
        // SDK limitation (2.1.0): the sync client runs each notification's consumer as its own
        // boundedElastic task, so the consumer may see them reordered: compare as a multiset.
        eventually(
            () -> seen.stream().filter(p -> token.equals(p.progressToken())).count() == wire.size(),
            "the consumer");
        assertThat(
                seen.stream()
                    .filter(p -> token.equals(p.progressToken()))
                    .map(ProgressNotification::progress)
                    .toList())
            .containsExactlyInAnyOrderElementsOf(
                wire.stream().map(ProgressNotification::progress).toList());
      }
      assertThat(seen)
          .extracting(ProgressNotification::progressToken)
          .containsOnly("sdk-a", "sdk-b");
    }
  }

  @Test
  void atLevelInfoTheSdksLoggingConsumerGetsExactlyTheInfoMessagesAndNoDebug() throws Exception {
    List<LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
    try (Peer peer = connect(b -> b.loggingConsumer(logs::add))) {
      McpSyncClient client = peer.client();
      client.setLoggingLevel(LoggingLevel.INFO);
      call(client, "emit_logs", Map.of("count", 2, "level", "debug"));
      call(client, "emit_logs", Map.of("count", 3, "level", "info", "logger", "sdk-test"));
      call(client, "emit_logs", Map.of("count", 1, "level", "debug"));
      eventually(() -> logs.size() >= 3, "three info logs");
      // No pause: each call's logs ride that call's stream before its response, so the wire already
      // holds everything these calls logged; the consumer cannot get more than the wire.
      List<JSONRPCMessage> inbound = List.copyOf(peer.wire().inbound);
      assertThat(inbound)
          .filteredOn(m -> isNotification(m, "notifications/message"))
          .extracting(m -> params(((JSONRPCNotification) m).params()).get("data"))
          .containsExactly("log message 1 of 3", "log message 2 of 3", "log message 3 of 3");
      // Logged inside the call, they ride that call's SSE stream: all before its response.
      Object infoCall =
          peer.wire().outbound.stream()
              .filter(m ->
                  m instanceof JSONRPCRequest r
                      && r.method().equals("tools/call")
                      && "info".equals(params(params(r.params()).get("arguments")).get("level")))
              .map(m -> ((JSONRPCRequest) m).id())
              .findFirst()
              .orElseThrow();
      int response = indexOfResponse(inbound, infoCall);
      assertThat(response).isPositive();
      int lastLog = -1;
      for (int i = 0; i < inbound.size(); i++) {
        if (isNotification(inbound.get(i), "notifications/message")) {
          lastLog = i;
        }
      }
      assertThat(lastLog)
          .as("the logs precede the response of the call that logged them")
          .isLessThan(response);
      assertThat(logs)
          .extracting(LoggingMessageNotification::data)
          .containsExactlyInAnyOrder(
              "log message 1 of 3", "log message 2 of 3", "log message 3 of 3");
      assertThat(logs)
          .allSatisfy(l -> {
            assertThat(l.level()).isEqualTo(LoggingLevel.INFO);
            assertThat(l.logger()).isEqualTo("sdk-test");
          });
    }
  }

  @Test
  void touchMakesTheSdksToolsChangeConsumerFireOnceWithTheNewTool() throws Exception {
    List<List<Tool>> changes = new CopyOnWriteArrayList<>();
    try (Peer peer = connect(b -> b.toolsChangeConsumer(changes::add))) {
      McpSyncClient client = peer.client();
      int before = client.listTools().tools().size();
      assertThat(text(call(client, "touch", Map.of()))).isEqualTo("touched tools");
      eventually(() -> changes.size() == 1, "the tools-change consumer");
      awaitMarker(peer);
      assertThat(peer.wire().inbound)
          .filteredOn(m -> isNotification(m, "notifications/tools/list_changed"))
          .as("one touch, one notification")
          .hasSize(1);
      assertThat(changes).as("one notification, one refetch").hasSize(1);
      assertThat(changes.get(0)).hasSize(before + 1).extracting(Tool::name).contains("dummy_1");
      assertThat(text(call(client, "dummy_1", Map.of()))).isEqualTo("dummy");
    }
  }

  @Test
  void aSubscribedResourceUpdateReachesTheSdksResourcesUpdateConsumer() throws Exception {
    List<List<ResourceContents>> updates = new CopyOnWriteArrayList<>();
    try (Peer peer = connect(b -> b.resourcesUpdateConsumer(updates::add))) {
      McpSyncClient client = peer.client();
      client.subscribeResource(new SubscribeRequest("demo://counter"));
      assertThat(text(call(client, "update_resource", Map.of())))
          .contains("1 subscribed session(s) notified");
      eventually(() -> updates.size() == 1, "the resources-update consumer");
      // The SDK reads the resource itself on resources/updated and hands over the contents.
      assertThat(updates.get(0))
          .singleElement()
          .satisfies(c -> {
            assertThat(c.uri()).isEqualTo("demo://counter");
            assertThat(((TextResourceContents) c).text()).isEqualTo("1");
          });
      assertThat(peer.wire().inbound)
          .filteredOn(m -> isNotification(m, "notifications/resources/updated"))
          .singleElement()
          .satisfies(m ->
              assertThat(params(((JSONRPCNotification) m).params()))
                  .containsEntry("uri", "demo://counter"));
      // Another uri's change is not sent to this session.
      call(client, "update_resource", Map.of("uri", "demo://elsewhere"));
      awaitMarker(peer);
      assertThat(updates).hasSize(1);
      assertThat(peer.wire().inbound)
          .filteredOn(m -> isNotification(m, "notifications/resources/updated"))
          .hasSize(1);
    }
  }

  @Test
  void heraldsSamplingAndElicitationRequestsAreAnsweredByTheSdkClientsHandlers() {
    List<String> asked = new CopyOnWriteArrayList<>();
    try (Peer peer =
        connect(b ->
            b.capabilities(ClientCapabilities.builder().sampling().elicitation().build())
                .sampling(req -> {
                  String prompt = ((TextContent) req.messages().get(0).content()).text();
                  asked.add(prompt);
                  return CreateMessageResult.builder()
                      .role(Role.ASSISTANT)
                      .content(new TextContent("sdk model answers: " + prompt))
                      .model("sdk-model")
                      .stopReason(CreateMessageResult.StopReason.END_TURN)
                      .build();
                })
                .elicitation(req -> {
                  asked.add(req.message());
                  assertThat(req.requestedSchema()).containsKey("properties");
                  return new ElicitResult(
                      ElicitResult.Action.ACCEPT,
                      Map.of("username", "sdk-user", "email", "sdk@example.org"));
                }))) {
      McpSyncClient client = peer.client();
      // Herald sends each reverse request on the tool call's SSE stream; the SDK POSTs the answer.
      assertThat(text(call(client, "test_sampling", Map.of("prompt", "what is 2+2?"))))
          .isEqualTo("LLM response: sdk model answers: what is 2+2?");
      String elicited = text(call(client, "test_elicitation", Map.of("message", "who are you?")));
      assertThat(elicited)
          .contains("action=accept")
          .contains("sdk-user")
          .contains("sdk@example.org");
      assertThat(asked).containsExactly("what is 2+2?", "who are you?");
      assertThat(peer.wire().inbound)
          .filteredOn(m -> m instanceof JSONRPCRequest)
          .extracting(m -> ((JSONRPCRequest) m).method())
          .containsExactly("sampling/createMessage", "elicitation/create");
    }
  }
}
