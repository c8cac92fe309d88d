package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Role;
import dev.herald.wire.Root;
import dev.herald.wire.SamplingContent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * Multi round-trip requests (MCP 2026-07-28 basic/patterns/mrtr): an {@code input_required} result
 * is fulfilled with the same handlers as handshake-era reverse calls, every input request of the
 * round keyed as asked, then retried with a new id, {@code inputResponses} and the echoed {@code
 * requestState} (none when none was given); rounds are bounded; a missing handler, an unknown
 * {@code resultType} fail clearly; a missing {@code resultType} is complete.
 */
@Timeout(30)
class InputRoundsTest {
  private static final String ELICIT =
      "{\"method\":\"elicitation/create\",\"params\":{\"message\":\"name?\",\"requestedSchema\":"
          + "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}";
  private static final String SAMPLE =
      "{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[{\"role\":\"user\","
          + "\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],\"maxTokens\":10}}";
  private static final String ROOTS = "{\"method\":\"roots/list\"}";
  private static final String DONE =
      "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}";

  private final List<String> asked = new CopyOnWriteArrayList<>();

  private McpClient.Builder client() {
    return McpClient.builder()
        .elicitation((p, ctx) -> {
          asked.add("elicit " + p.message());
          return ElicitResult.accept(McpJson.object().put("name", "Ada"));
        })
        .sampling((p, ctx) -> {
          asked.add("sample");
          return CreateMessageResult.of(Role.ASSISTANT, SamplingContent.text("hello"), "m", null);
        })
        .roots(List.of(Root.of("file:///w", "w")));
  }

  /** Answers the n-th request of {@code method} with the n-th answer (the last one repeats). */
  private static Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> rounds(
      String... answers) {
    AtomicInteger n = new AtomicInteger();
    return r -> result(r, answers[Math.min(n.getAndIncrement(), answers.length - 1)]);
  }

  @Test
  void everyInputRequestOfARoundIsFulfilledAndTheCallRetriedWithANewIdAndTheEchoedState()
      throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.TOOLS_CALL,
        rounds(
            "{\"resultType\":\"input_required\",\"inputRequests\":{\"who\":"
                + ELICIT
                + ",\"where\":"
                + ROOTS
                + "},\"requestState\":\"s-1\"}",
            "{\"resultType\":\"input_required\",\"inputRequests\":{\"llm\":" + SAMPLE + "}}",
            DONE));
    try (McpClient c = client().connect(peer.clientEnd())) {
      CallToolResult r = c.callTool("greet", McpJson.object().put("x", 1));
      assertThat(r.content()).hasSize(1);
    }
    List<JsonRpcMessage.Request> calls = peer.requests(McpMethods.TOOLS_CALL);
    assertThat(calls).hasSize(3);
    assertThat(calls.stream().map(JsonRpcMessage.Request::id).distinct()).hasSize(3);
    assertThat(asked).containsExactly("elicit name?", "sample");

    ObjectNode first = calls.get(0).params();
    assertThat(first.has("inputResponses")).isFalse();
    assertThat(first.has("requestState")).isFalse();

    ObjectNode second = calls.get(1).params();
    assertThat(second.get("name").stringValue()).isEqualTo("greet");
    assertThat(second.get("arguments").get("x").intValue()).isEqualTo(1);
    assertThat(second.get("requestState").stringValue()).isEqualTo("s-1");
    assertThat(second.get("inputResponses").get("who").get("action").stringValue())
        .isEqualTo("accept");
    assertThat(second.get("inputResponses").get("who").get("content").get("name").stringValue())
        .isEqualTo("Ada");
    assertThat(
            second.get("inputResponses").get("where").get("roots").get(0).get("uri").stringValue())
        .isEqualTo("file:///w");
    assertThat(second.get("_meta").has("io.modelcontextprotocol/protocolVersion")).isTrue();

    ObjectNode third = calls.get(2).params();
    assertThat(third.has("requestState")).as("no state was given this round").isFalse();
    assertThat(third.get("inputResponses").propertyNames()).containsExactly("llm");
    assertThat(third.get("inputResponses").get("llm").get("model").stringValue()).isEqualTo("m");
  }

  @Test
  void promptsGetAndResourcesReadTakeRoundsToo() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.PROMPTS_GET,
        rounds(
            "{\"resultType\":\"input_required\",\"requestState\":\"p\"}",
            "{\"resultType\":\"complete\",\"messages\":[]}"));
    peer.on(
        McpMethods.RESOURCES_READ,
        rounds(
            "{\"resultType\":\"input_required\",\"inputRequests\":{\"r\":" + ROOTS + "}}",
            "{\"resultType\":\"complete\",\"contents\":[],\"ttlMs\":0,\"cacheScope\":\"private\"}"));
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.getPrompt("p", Map.of());
      c.readResource("test://r");
    }
    assertThat(
            peer.requests(McpMethods.PROMPTS_GET).get(1).params().get("requestState").stringValue())
        .isEqualTo("p");
    assertThat(peer.requests(McpMethods.PROMPTS_GET).get(1).params().has("inputResponses"))
        .isFalse();
    assertThat(
            peer.requests(McpMethods.RESOURCES_READ).get(1).params().get("inputResponses").has("r"))
        .isTrue();
  }

  @Test
  void aServerThatKeepsAskingIsStoppedAfterTheConfiguredNumberOfRounds() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.TOOLS_CALL,
        rounds("{\"resultType\":\"input_required\",\"requestState\":\"again\"}"));
    try (McpClient c = client().maxInputRounds(3).connect(peer.clientEnd())) {
      assertThatThrownBy(() -> c.callTool("t", null))
          .isInstanceOf(McpException.class)
          .hasMessageContaining("after 3 rounds")
          .hasMessageContaining("maxInputRounds");
    }
    assertThat(peer.requests(McpMethods.TOOLS_CALL)).hasSize(3);
  }

  @Test
  void anInputRequestWithoutAHandlerFailsTheCallNamingWhatIsMissing() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.TOOLS_CALL,
        rounds("{\"resultType\":\"input_required\",\"inputRequests\":{\"llm\":" + SAMPLE + "}}"));
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      assertThatThrownBy(() -> c.callTool("t", null))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("sampling/createMessage")
          .hasMessageContaining("no sampling handler");
      assertThat(c.capabilities().supportsSampling())
          .as("and it never declared sampling")
          .isFalse();
    }
    assertThat(peer.requests(McpMethods.TOOLS_CALL)).hasSize(1);
  }

  @Test
  void anUnknownResultTypeIsInvalidAndAMissingOneIsComplete() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_CALL, rounds("{\"resultType\":\"mystery\",\"content\":[]}"));
    peer.on(McpMethods.PROMPTS_GET, rounds("{\"messages\":[]}"));
    try (McpClient c = client().connect(peer.clientEnd())) {
      assertThatThrownBy(() -> c.callTool("t", null))
          .isInstanceOf(McpException.class)
          .hasMessageContaining("unknown resultType \"mystery\"");
      assertThat(c.getPrompt("p", null).messages()).isEmpty();
    }
  }

  @Test
  void cancellingACallStopsItsRounds() throws Exception {
    ModernPeer peer = new ModernPeer();
    java.util.concurrent.CountDownLatch asking = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    peer.on(
        McpMethods.TOOLS_CALL,
        rounds("{\"resultType\":\"input_required\",\"inputRequests\":{\"who\":" + ELICIT + "}}"));
    try (McpClient c =
        McpClient.builder()
            .elicitation((p, ctx) -> {
              asking.countDown();
              release.await();
              return ElicitResult.decline();
            })
            .connect(peer.clientEnd())) {
      ToolCallHandle h = c.callToolAsync("t", null, dev.herald.session.CallOptions.defaults());
      asking.await();
      assertThat(h.cancel("changed my mind")).isTrue();
      release.countDown();
      assertThatThrownBy(h::await).isInstanceOf(dev.herald.session.CancelledException.class);
      c.tools(); // a round trip: a retry, had one been sent, would have arrived before this
    }
    assertThat(peer.requests(McpMethods.TOOLS_CALL)).hasSize(1);
  }
}
