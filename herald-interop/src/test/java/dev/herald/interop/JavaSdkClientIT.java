package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.testing.Background;
import dev.herald.testing.HeraldJar;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official MCP Java SDK's sync client (2.1.0) over its {@code StdioClientTransport}, spawning a
 * real Herald server ({@code herald serve --stdio}, the demo fixture). A {@link SdkWiretap} under
 * the SDK's transport keeps what crossed the wire, so ordering can be checked too.
 */
@Timeout(120)
class JavaSdkClientIT {

  /** What a test wants from the SDK client's builder. */
  private interface Spec extends Consumer<McpClient.SyncSpec> {}

  private record Peer(McpSyncClient client, SdkWiretap wire) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }

  private static Peer connect(Spec spec) {
    List<String> cmd = HeraldJar.command("serve", "--stdio");
    StdioClientTransport stdio =
        new StdioClientTransport(
            ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build(),
            McpJsonDefaults.getMapper());
    stdio.setStdErrorHandler(line -> System.err.println("[herald-server] " + line));
    SdkWiretap wire = new SdkWiretap(stdio);
    McpClient.SyncSpec builder =
        McpClient.sync(wire)
            .clientInfo(
                new io.modelcontextprotocol.spec.McpSchema.Implementation(
                    "java-sdk-client", "2.1.0"))
            // the SDK bounds initialize by the request timeout too, and a JVM starting on a
            // machine whose cores are busy can take many seconds to answer it
            .requestTimeout(Duration.ofSeconds(40))
            .initializationTimeout(Duration.ofSeconds(60));
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

  /**
   * A peer whose SDK requestTimeout is short. The SDK bounds {@code initialize} with the same
   * timeout, so a JVM start on a loaded machine can exceed it: then try again with a fresh process.
   */
  private static Peer connectWithShortTimeout(Duration requestTimeout) {
    for (int attempt = 1; ; attempt++) {
      try {
        return connect(b -> b.requestTimeout(requestTimeout));
      } catch (RuntimeException e) {
        if (attempt == 4) {
          throw e;
        }
        System.err.println(
            "[java-sdk-client] initialize took longer than "
                + requestTimeout
                + "; starting again: "
                + e);
      }
    }
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

  private static boolean isProgressFor(JSONRPCMessage m, String token) {
    return m instanceof JSONRPCNotification n
        && n.method().equals("notifications/progress")
        && token.equals(params(n.params()).get("progressToken"));
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
  void theSdkClientInitializesWithHeraldAndListsItsTools() {
    try (Peer peer = connect(b -> {})) {
      McpSyncClient client = peer.client();
      assertThat(client.getServerInfo().name()).isEqualTo("herald-demo");
      assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
      assertThat(client.getServerCapabilities().tools().listChanged()).isTrue();
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
      assertThat(text(call(client, "echo", Map.of("text", "hello from the java sdk"))))
          .isEqualTo("hello from the java sdk");
      client.ping();
    }
  }

  @Test
  void progressForEachTokenRisesStrictlyEndsAtTheTotalBeforeTheResponseAndNeverCrossesCalls()
      throws Exception {
    List<ProgressNotification> seen = new CopyOnWriteArrayList<>();
    try (Peer peer = connect(b -> b.progressConsumer(seen::add))) {
      McpSyncClient client = peer.client();
      // Two calls at once, each with its own token: the SDK's consumer is global, so routing is
      // checked by token.
      CompletableFuture<CallToolResult> a =
          Background.supply(() ->
              client.callTool(
                  CallToolRequest.builder("slow")
                      .arguments(Map.of("steps", 5, "delayMs", 40))
                      .progressToken("sdk-a")
                      .build()));
      CompletableFuture<CallToolResult> b =
          Background.supply(() ->
              client.callTool(
                  CallToolRequest.builder("slow")
                      .arguments(Map.of("steps", 8, "delayMs", 25))
                      .progressToken("sdk-b")
                      .build()));
      assertThat(text(a.get(15, TimeUnit.SECONDS))).isEqualTo("completed 5 steps");
      assertThat(text(b.get(15, TimeUnit.SECONDS))).isEqualTo("completed 8 steps");

      for (var expect : List.of(Map.entry("sdk-a", 5.0), Map.entry("sdk-b", 8.0))) {
        String token = expect.getKey();
        double total = expect.getValue();
        // On the wire: at least one update, strictly increasing, the last equal to the total and
        // written before the response to its own request.
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
        // And the SDK's consumer got exactly those. Not necessarily in order: SDK limitation
        // (2.1.0),
        // the sync client runs each notification's consumer as its own task on boundedElastic.
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
      client
          .ping(); // the marker: on the one pipe, whatever Herald wrote before its answer is on the
      // wire
      // Herald writes them in order (checked on the wire); the SDK's sync client hands each
      // notification to its consumer as a separate boundedElastic task, so the consumer may see
      // them reordered (SDK 2.1.0 limitation): compare as a multiset there.
      assertThat(peer.wire().inbound)
          .filteredOn(
              m -> m instanceof JSONRPCNotification n && n.method().equals("notifications/message"))
          .extracting(m -> params(((JSONRPCNotification) m).params()).get("data"))
          .containsExactly("log message 1 of 3", "log message 2 of 3", "log message 3 of 3");
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
          .filteredOn(m ->
              m instanceof JSONRPCNotification n
                  && n.method().equals("notifications/tools/list_changed"))
          .as("one touch, one coalesced notification")
          .hasSize(1);
      assertThat(changes).as("one touch, one coalesced notification, one refetch").hasSize(1);
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
          .filteredOn(m ->
              m instanceof JSONRPCNotification n
                  && n.method().equals("notifications/resources/updated"))
          .singleElement()
          .satisfies(m ->
              assertThat(params(((JSONRPCNotification) m).params()))
                  .containsEntry("uri", "demo://counter"));
      // Another uri's change is not sent to this session.
      call(client, "update_resource", Map.of("uri", "demo://elsewhere"));
      awaitMarker(peer);
      assertThat(peer.wire().inbound)
          .filteredOn(m ->
              m instanceof JSONRPCNotification n
                  && n.method().equals("notifications/resources/updated"))
          .hasSize(1);
      assertThat(updates).hasSize(1);
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
      assertThat(text(call(client, "test_sampling", Map.of("prompt", "what is 2+2?"))))
          .isEqualTo("LLM response: sdk model answers: what is 2+2?");
      String elicited = text(call(client, "test_elicitation", Map.of("message", "who are you?")));
      assertThat(elicited)
          .contains("action=accept")
          .contains("sdk-user")
          .contains("sdk@example.org");
      assertThat(asked).containsExactly("what is 2+2?", "who are you?");
    }
  }

  @Test
  void anSdkRequestTimeoutLeavesHeraldsSessionUsableAndAHandSentCancelStopsTheWork()
      throws Exception {
    // SDK limitation (2.1.0, java-sdk #130): the client never sends notifications/cancelled, not on
    // timeout nor otherwise, and has no API to. So: (1) a timed-out call leaves Herald running the
    // tool while the session stays usable; (2) the cancellation is then sent by hand through the
    // SDK transport's public sendMessage, with the id the SDK gave the request.
    try (Peer peer = connectWithShortTimeout(Duration.ofSeconds(8))) {
      McpSyncClient client = peer.client();
      long start = System.nanoTime();
      assertThatThrownBy(() ->
              client.callTool(
                  CallToolRequest.builder("slow")
                      .arguments(Map.of("steps", 300, "delayMs", 100))
                      .progressToken("sdk-cancel")
                      .build()))
          .isInstanceOf(RuntimeException.class);
      // the SDK gave up at its timeout, long before the 30 s the call would take
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
      client.ping();
      assertThat(text(call(client, "echo", Map.of("text", "still here")))).isEqualTo("still here");
      Object id = requestIdWithToken(peer.wire(), "sdk-cancel");
      int atTimeout = progressOnTheWire(peer.wire(), "sdk-cancel").size();
      eventually(
          () -> progressOnTheWire(peer.wire(), "sdk-cancel").size() > atTimeout + 1,
          "Herald still working on the abandoned call");

      peer.wire()
          .sendMessage(
              new JSONRPCNotification(
                  "notifications/cancelled",
                  Map.of("requestId", id, "reason", "the java sdk gave up")))
          .block(Duration.ofSeconds(5));
      int atCancel = progressOnTheWire(peer.wire(), "sdk-cancel").size();
      // Markers on Herald's own clock instead of pauses: two calls of five steps as long as the
      // cancelled call's. During the first, at most what was already on its way may still arrive;
      // during the second, nothing: had the work gone on, five more steps would have come each
      // time.
      assertThat(text(call(client, "slow", Map.of("steps", 5, "delayMs", 100))))
          .isEqualTo("completed 5 steps");
      int afterCancel = progressOnTheWire(peer.wire(), "sdk-cancel").size();
      assertThat(afterCancel)
          .as("at most the step in flight and a held-back value after the cancel")
          .isLessThanOrEqualTo(atCancel + 2);
      assertThat(text(call(client, "slow", Map.of("steps", 5, "delayMs", 100))))
          .isEqualTo("completed 5 steps");
      assertThat(progressOnTheWire(peer.wire(), "sdk-cancel"))
          .as("no progress once cancelled")
          .hasSize(afterCancel);
      assertThat(afterCancel).as("stopped well before step 300").isLessThan(290);
      assertThat(indexOfResponse(List.copyOf(peer.wire().inbound), id))
          .as("no response to a cancelled request")
          .isEqualTo(-1);
      assertThat(text(call(client, "echo", Map.of("text", "after cancel"))))
          .isEqualTo("after cancel");
    }
  }
}
