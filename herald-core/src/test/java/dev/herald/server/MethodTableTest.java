package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CancelledException;
import dev.herald.session.Interceptor;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.RequestId;
import dev.herald.wire.Resource;
import dev.herald.wire.SamplingMessage;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The method table and the interceptor chain, over real sessions on the in-memory transport: what
 * the table answers by itself, what user interceptors see and may do, and the one exception
 * translation.
 */
class MethodTableTest {

  private static McpServer.Builder builder() {
    return McpServer.builder()
        .tool(Tool.builder("echo").build(), call -> dev.herald.wire.CallToolResult.text("echo"))
        .resource(
            Resource.of("test://broken", "broken", "text/plain"),
            read -> {
              throw new IllegalStateException(
                  "connection to dev.herald.internal.Db failed: password=hunter2");
            })
        .prompt(
            Prompt.of("greet", null, List.of()),
            get -> {
              throw new NullPointerException("Cannot invoke \"java.lang.String.length()\"");
            });
  }

  private static ObjectNode toolCall(String name) {
    return McpJson.toObject(CallToolParams.of(name, McpJson.object()));
  }

  private static long responsesTo(Peers.Peer peer, RequestId id) {
    return peer.wire().received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Response r && id.equals(r.id()))
        .count();
  }

  @Test
  void unknownMethodIsAnsweredOnceWithMethodNotFound() throws Exception {
    try (Peers.Peer peer = Peers.connect(builder().build())) {
      OutboundCall call =
          EngineAccess.of(peer.client()).request("no/such/method", McpJson.object());

      assertThatThrownBy(() -> Peers.await(call.result()))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
                assertThat(e.getMessage()).isEqualTo("Method not found: no/such/method");
              });
      peer.request(
          McpMethods.PING, McpJson.object()); // anything else for it would have arrived by now
      assertThat(responsesTo(peer, call.id())).isEqualTo(1);
    }
  }

  @Test
  void methodsOfACapabilityTheServerDidNotDeclareAreMethodNotFound() throws Exception {
    try (Peers.Peer peer =
        Peers.connect(McpServer.builder().build())) { // no resources, prompts, completions
      McpException resources =
          peer.error(
              McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of("test://x")));
      McpException prompts = peer.error(McpMethods.PROMPTS_LIST, McpJson.object());
      McpException completions = peer.error(McpMethods.COMPLETION_COMPLETE, McpJson.object());

      assertThat(List.of(resources.code(), prompts.code(), completions.code()))
          .containsOnly(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(resources.getMessage())
          .isEqualTo(
              "Method not found: resources/read (the server did not declare the resources capability)");
      assertThat(completions.getMessage()).contains("completions capability");
    }
  }

  @Test
  void serverRequestForACapabilityTheClientDidNotDeclareIsMethodNotFoundFromTheClientsTable()
      throws Exception {
    try (Peers.Peer peer = Peers.connect(builder().build())) { // the client declares no sampling
      CreateMessageParams params = CreateMessageParams.of(List.of(SamplingMessage.user("hi")), 10);
      OutboundCall call =
          peer.session()
              .engine()
              .request(McpMethods.SAMPLING_CREATE_MESSAGE, McpJson.toObject(params));

      assertThatThrownBy(() -> Peers.await(call.result()))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
                assertThat(e.getMessage())
                    .contains("sampling/createMessage")
                    .contains("the client did not declare the sampling capability");
              });
    }
  }

  @Test
  void userInterceptorSeesEveryRequestAndCanShortCircuitWithAnMcpException() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    McpServer server =
        builder()
            .interceptor(chain -> {
              seen.add(chain.method());
              return chain.proceed();
            })
            .interceptor(chain -> {
              if (chain.method().equals(McpMethods.TOOLS_CALL)
                  && chain.session().clientInfo().isPresent()
                  && "forbidden".equals(chain.params().get("name").stringValue())) {
                throw new McpException(
                    -31001,
                    "Forbidden: "
                        + chain.session().clientInfo().get().name()
                        + " may not call forbidden");
              }
              return chain.proceed();
            })
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      peer.request(McpMethods.TOOLS_LIST, McpJson.object());
      McpException refused = peer.error(McpMethods.TOOLS_CALL, toolCall("forbidden"));
      McpException unknown = peer.error("no/such/method", McpJson.object());
      peer.request(McpMethods.TOOLS_CALL, toolCall("echo"));

      assertThat(refused.code()).isEqualTo(-31001);
      assertThat(refused.getMessage()).isEqualTo("Forbidden: test-client may not call forbidden");
      assertThat(unknown.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(seen)
          .containsExactly(
              McpMethods.INITIALIZE,
              McpMethods.TOOLS_LIST,
              McpMethods.TOOLS_CALL,
              "no/such/method",
              McpMethods.TOOLS_CALL);
    }
  }

  @Test
  void clientInterceptorSeesTheServersRequests() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = builder().build().connect(wire[1]);
    try (McpClient client =
        McpClient.builder()
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
            .interceptor(chain -> {
              seen.add(
                  chain.method()
                      + " "
                      + chain.protocolVersion().orElseThrow().wire()
                      + " "
                      + (chain.session() != null));
              return chain.proceed();
            })
            .connect(wire[0])) {
      Peers.await(session.engine().request(McpMethods.PING, null).result());

      assertThat(seen).containsExactly("ping 2025-11-25 true");
    }
  }

  /** Breaks the chain contract on tools/list: proceeds twice. */
  static final class ProceedsTwice implements Interceptor<ServerSession> {
    final AtomicReference<String> failure = new AtomicReference<>();

    @Override
    public tools.jackson.databind.JsonNode intercept(Chain<ServerSession> chain) throws Exception {
      if (!chain.method().equals(McpMethods.TOOLS_LIST)) {
        return chain.proceed();
      }
      chain.proceed();
      try {
        return chain.proceed();
      } catch (IllegalStateException e) {
        failure.set(e.getMessage());
        throw e;
      }
    }
  }

  @Test
  void proceedingTwiceFailsTheRequestWithAMessageNamingTheInterceptor() throws Exception {
    ProceedsTwice twice = new ProceedsTwice();
    try (Peers.Peer peer = Peers.connect(builder().interceptor(twice).build())) {
      McpException e = peer.error(McpMethods.TOOLS_LIST, McpJson.object());

      assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
      assertThat(e.getMessage()).isEqualTo("Internal error");
      assertThat(twice.failure.get())
          .isEqualTo(
              "interceptor "
                  + ProceedsTwice.class.getName()
                  + " must call proceed() exactly once, called it 2 times");
    }
  }

  @Test
  void anInterceptorReturningNullFailsTheRequestWithAMessageNamingIt() throws Exception {
    AtomicReference<String> failure = new AtomicReference<>();
    McpServer server =
        builder()
            .interceptor(chain -> {
              try {
                return chain.proceed();
              } catch (IllegalStateException e) {
                failure.set(e.getMessage());
                throw e;
              }
            })
            .interceptor(
                chain -> chain.method().equals(McpMethods.TOOLS_LIST) ? null : chain.proceed())
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      McpException e = peer.error(McpMethods.TOOLS_LIST, McpJson.object());

      assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
      assertThat(failure.get())
          .startsWith("interceptor " + MethodTableTest.class.getName())
          .contains("returned null");
    }
  }

  @Test
  void aBugInAHandlerIsInternalErrorWithoutAnyDetailOfTheImplementation() throws Exception {
    try (Peers.Peer peer = Peers.connect(builder().build())) {
      McpException read =
          peer.error(
              McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of("test://broken")));
      McpException prompt =
          peer.error(McpMethods.PROMPTS_GET, McpJson.object().put("name", "greet"));

      for (McpException e : List.of(read, prompt)) {
        assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
        assertThat(e.getMessage()).isEqualTo("Internal error");
        assertThat(e.data()).isNull();
      }
    }
  }

  @Test
  void aBugInAClientHandlerIsInternalErrorWithoutAnyDetail() throws Exception {
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = builder().build().connect(wire[1]);
    try (McpClient client =
        McpClient.builder()
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
            .sampling((params, context) -> {
              throw new IllegalArgumentException(
                  "java.lang.IllegalArgumentException: key sk-123 rejected");
            })
            .connect(wire[0])) {
      CreateMessageParams params = CreateMessageParams.of(List.of(SamplingMessage.user("hi")), 10);
      OutboundCall call =
          session.engine().request(McpMethods.SAMPLING_CREATE_MESSAGE, McpJson.toObject(params));

      assertThatThrownBy(() -> Peers.await(call.result()))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
                assertThat(e.getMessage()).isEqualTo("Internal error");
              });
    }
  }

  @Test
  void aCancelledRequestIsNeverAnswered() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch chainDone = new CountDownLatch(1);
    McpServer server =
        builder()
            .interceptor(chain -> {
              try {
                return chain.proceed();
              } finally {
                if (chain.method().equals(McpMethods.TOOLS_CALL)) {
                  chainDone.countDown();
                }
              }
            })
            .tool(
                Tool.builder("wait").build(),
                call -> {
                  started.countDown();
                  new CountDownLatch(1).await(); // until interrupted by the cancellation
                  return dev.herald.wire.CallToolResult.text("never");
                })
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      OutboundCall call =
          EngineAccess.of(peer.client()).request(McpMethods.TOOLS_CALL, toolCall("wait"));
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      call.cancel("user gave up");
      assertThat(chainDone.await(10, TimeUnit.SECONDS)).isTrue();
      peer.request(McpMethods.PING, McpJson.object());

      assertThatThrownBy(() -> Peers.await(call.result())).isInstanceOf(CancelledException.class);
      assertThat(responsesTo(peer, call.id())).isZero();
    }
  }

  @Test
  void paramsThatDoNotDecodeAreInvalidParamsInProtocolTerms() throws Exception {
    try (Peers.Peer peer = Peers.connect(builder().build())) {
      McpException arguments =
          peer.error(
              McpMethods.TOOLS_CALL, McpJson.object().put("name", "echo").put("arguments", "nope"));
      McpException uri =
          peer.error(McpMethods.RESOURCES_READ, McpJson.object().set("uri", McpJson.object()));
      McpException cursor =
          peer.error(
              McpMethods.TOOLS_LIST,
              McpJson.object().set("cursor", McpJson.mapper().createArrayNode()));

      for (McpException e : List.of(arguments, uri, cursor)) {
        assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(e.getMessage())
            .startsWith("Invalid params: ")
            .doesNotContain("java.", "tools.jackson", "dev.herald", "ObjectNode", "Exception");
      }
      assertThat(arguments.getMessage()).contains("object").contains("arguments");
    }
  }

  @Test
  void completionReferenceIsStillValidatedAfterTheTable() throws Exception {
    McpServer server =
        builder()
            .prompt(
                Prompt.of("other", null, List.of(PromptArgument.of("x", null, false))), get -> null)
            .completion(dev.herald.wire.PromptReference.of("other"), request -> List.of("a"))
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      ObjectNode params = McpJson.object();
      params.set("ref", McpJson.object().put("type", "ref/prompt").put("name", "missing"));
      params.set("argument", McpJson.object().put("name", "x").put("value", ""));
      McpException e = peer.error(McpMethods.COMPLETION_COMPLETE, params);

      assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(e.getMessage()).isEqualTo("Invalid params: unknown prompt: missing");
    }
  }
}
