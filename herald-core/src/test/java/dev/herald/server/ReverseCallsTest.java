package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.TimeoutException;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Role;
import dev.herald.wire.Root;
import dev.herald.wire.SamplingMessage;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ReverseCallsTest {
  private static final ClientCapabilities SAMPLING =
      new ClientCapabilities(null, null, McpJson.object(), McpJson.object(), null, null);

  private final AtomicReference<Throwable> handlerSaw = new AtomicReference<>();

  McpServer server() {
    return server(McpServer.builder());
  }

  McpServer server(McpServer.Builder builder) {
    return builder
        .tool(
            Tool.builder("ask").description("samples").build(),
            call -> {
              try {
                CreateMessageResult r =
                    call.context()
                        .sample(
                            CreateMessageParams.of(
                                List.of(SamplingMessage.user(call.string("prompt", "hi"))), 100));
                return CallToolResult.text(
                    "LLM response: " + ((ContentBlock.Text) r.blocks().get(0)).text());
              } catch (Throwable t) {
                handlerSaw.set(t);
                throw t;
              }
            })
        .tool(
            Tool.builder("form").description("elicits").build(),
            call -> {
              ElicitResult r =
                  call.context()
                      .elicit(ElicitParams.form("Name?", McpJson.object().put("type", "object")));
              return CallToolResult.text(
                  "action=" + r.action().wire() + ", content=" + r.content());
            })
        .tool(
            Tool.builder("roots").description("lists roots").build(),
            call ->
                CallToolResult.text(
                    call.context().listRoots().stream().map(Root::uri).toList().toString()))
        .build();
  }

  static JsonNode callTool(Peers.RawPeer peer, String name) throws Exception {
    return peer.request(
        McpMethods.TOOLS_CALL, McpJson.toObject(CallToolParams.of(name, McpJson.object())));
  }

  static String text(JsonNode toolResult) {
    return toolResult.get("content").get(0).get("text").stringValue();
  }

  @Test
  void samplingAndElicitationReturnTheClientsTypedAnswers() throws Exception {
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(),
            SAMPLING,
            call ->
                switch (call.method()) {
                  case McpMethods.SAMPLING_CREATE_MESSAGE ->
                      McpJson.toTree(
                          CreateMessageResult.of(
                              Role.ASSISTANT,
                              (dev.herald.wire.SamplingContent)
                                  ContentBlock.text("This is a test response from the client"),
                              "test-model",
                              CreateMessageResult.StopReason.END_TURN));
                  case McpMethods.ELICITATION_CREATE ->
                      McpJson.toTree(ElicitResult.accept(McpJson.object().put("name", "Ada")));
                  default -> throw McpException.methodNotFound(call.method());
                })) {
      assertThat(text(callTool(peer, "ask")))
          .isEqualTo("LLM response: This is a test response from the client");
      assertThat(text(callTool(peer, "form")))
          .isEqualTo("action=accept, content={\"name\":\"Ada\"}");
      JsonRpcMessage.Request sampling =
          peer.wire().requests(McpMethods.SAMPLING_CREATE_MESSAGE).get(0);
      assertThat(sampling.params().get("maxTokens").intValue()).isEqualTo(100);
    }
  }

  @Test
  void aReverseCallTheClientDidNotDeclareFailsTheHandlerAndSendsNothing() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) { // declares no capabilities
      McpException ask =
          peer.error(
              McpMethods.TOOLS_CALL, McpJson.toObject(CallToolParams.of("ask", McpJson.object())));
      McpException roots =
          peer.error(
              McpMethods.TOOLS_CALL,
              McpJson.toObject(CallToolParams.of("roots", McpJson.object())));

      // the handler sees the refusal; left uncaught, it answers the tools/call as a JSON-RPC error
      assertThat(handlerSaw.get()).isInstanceOf(McpException.class);
      assertThat(ask.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(ask.getMessage())
          .isEqualTo(
              "Cannot send sampling/createMessage: the client did not declare the sampling capability at initialize");
      assertThat(roots.getMessage()).contains("roots/list").contains("roots capability");
      assertThat(peer.wire().received).noneMatch(m -> m instanceof JsonRpcMessage.Request);
    }
  }

  @Test
  void aSamplingCallTheClientNeverAnswersTimesOutAfterTheDefaultTenMinutesAndIsCancelled()
      throws Exception {
    assertReverseCallTimesOut(McpServer.builder(), CallOptions.DEFAULT_TIMEOUT);
  }

  @Test
  void theServersReverseCallDeadlineIsConfigurable() throws Exception {
    assertReverseCallTimesOut(
        McpServer.builder()
            .reverseCallOptions(CallOptions.builder().timeout(Duration.ofSeconds(5)).build()),
        Duration.ofSeconds(5));
  }

  private void assertReverseCallTimesOut(McpServer.Builder builder, Duration deadline)
      throws Exception {
    ManualScheduler clock = new ManualScheduler();
    CountDownLatch samplingStarted = new CountDownLatch(1);
    CountDownLatch samplingCancelled = new CountDownLatch(1);
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(builder.ticker(clock).scheduler(clock)),
            SAMPLING,
            call -> {
              call.cancellation().onCancel(samplingCancelled::countDown);
              samplingStarted.countDown();
              samplingCancelled.await(30, TimeUnit.SECONDS);
              throw new CancelledException("cancelled");
            })) {
      OutboundCall toolCall =
          peer.engine()
              .request(
                  McpMethods.TOOLS_CALL,
                  McpJson.toObject(CallToolParams.of("ask", McpJson.object())),
                  CallOptions.builder().noTimeout().build(),
                  null);
      assertThat(samplingStarted.await(10, TimeUnit.SECONDS)).isTrue();

      clock.advance(deadline.minusMillis(1));
      assertThat(samplingCancelled.getCount()).isEqualTo(1);
      clock.advance(Duration.ofMillis(1));

      assertThat(samplingCancelled.await(10, TimeUnit.SECONDS))
          .as("the client got notifications/cancelled")
          .isTrue();
      Peers.awaitTrue(() -> handlerSaw.get() != null);
      assertThat(handlerSaw.get()).isInstanceOf(TimeoutException.class);
      assertThat(toolCall.result())
          .failsWithin(10, TimeUnit.SECONDS)
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .withCauseInstanceOf(McpException.class);
    }
  }

  @Test
  void aSamplingCallIsCancelledWithItsOriginatingRequest() throws Exception {
    CountDownLatch samplingStarted = new CountDownLatch(1);
    CountDownLatch samplingCancelled = new CountDownLatch(1);
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(),
            SAMPLING,
            call -> {
              samplingStarted.countDown();
              call.cancellation().onCancel(samplingCancelled::countDown);
              try {
                Thread.sleep(30_000);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              throw new CancelledException("cancelled");
            })) {
      OutboundCall toolCall =
          peer.engine()
              .request(
                  McpMethods.TOOLS_CALL,
                  McpJson.toObject(CallToolParams.of("ask", McpJson.object())));
      assertThat(samplingStarted.await(10, TimeUnit.SECONDS)).isTrue();

      toolCall.cancel("user pressed stop");

      assertThat(samplingCancelled.await(10, TimeUnit.SECONDS)).isTrue();
      JsonRpcMessage.Request sampling =
          peer.wire().requests(McpMethods.SAMPLING_CREATE_MESSAGE).get(0);
      List<CancelledNotificationParams> cancels =
          peer.wire().notifications(McpMethods.CANCELLED).stream()
              .map(n -> McpJson.fromTree(n.params(), CancelledNotificationParams.class))
              .toList();
      assertThat(cancels)
          .extracting(CancelledNotificationParams::requestId)
          .containsExactly(sampling.id());
      Peers.awaitTrue(() -> handlerSaw.get() != null);
      assertThat(handlerSaw.get())
          .isInstanceOfAny(InterruptedException.class, CancelledException.class);
      Peers.awaitTrue(() ->
          peer.session().engine().pendingCount() == 0
              && peer.session().engine().inFlightCount() == 0);
    }
  }

  @Test
  void rootsAreCachedUntilTheClientSaysTheyChanged() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    ClientCapabilities caps =
        new ClientCapabilities(null, new ClientCapabilities.Roots(true), null, null, null, null);
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(),
            caps,
            (InboundCall call) -> {
              int n = asked.incrementAndGet();
              return McpJson.toTree(ListRootsResult.of(List.of(Root.of("file:///v" + n, null))));
            })) {
      assertThat(text(callTool(peer, "roots"))).isEqualTo("[file:///v1]");
      assertThat(text(callTool(peer, "roots"))).isEqualTo("[file:///v1]");
      assertThat(asked).hasValue(1);

      peer.engine().notify(McpMethods.ROOTS_LIST_CHANGED, null, null);

      assertThat(text(callTool(peer, "roots"))).isEqualTo("[file:///v2]");
      assertThat(text(callTool(peer, "roots"))).isEqualTo("[file:///v2]");
      assertThat(asked).hasValue(2);
    }
  }

  @Test
  void rootsAreAskedEveryTimeWhenTheClientCannotAnnounceChanges() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    ClientCapabilities caps =
        new ClientCapabilities(null, new ClientCapabilities.Roots(null), null, null, null, null);
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(),
            caps,
            call -> {
              asked.incrementAndGet();
              return McpJson.toTree(ListRootsResult.of(List.of()));
            })) {
      callTool(peer, "roots");
      callTool(peer, "roots");

      assertThat(asked).hasValue(2);
    }
  }
}
