package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.testing.HeraldJar;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Root;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance suite's {@code input-required-result-*} flows against a real {@code herald serve
 * --stdio} process, with 2026-07-28 requests on the pipe (no handshake): the fixture's tools and
 * prompt answer {@code input_required} with a signed {@code requestState}, complete on the retry,
 * re-ask when an answer is missing, and refuse a tampered state.
 */
@Timeout(60)
class InputRequiredFixtureIT {
  private static final String ALL_CAPS =
      "{\"sampling\":{},\"elicitation\":{},\"roots\":{\"listChanged\":true}}";

  private RawStdioServer server;
  private Process process;
  private OutputStream stdin;
  private BlockingQueue<String> lines;
  private int nextId = 1;

  @BeforeEach
  void start() throws IOException {
    server = RawStdioServer.start(List.of("-Xmx96m"));
    process = server.process();
    stdin = server.stdin();
    lines = server.lines();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.close();
  }

  /** Sends a 2026-07-28 request and returns its response (result or error). */
  private JsonNode send(String method, ObjectNode params, String caps) throws Exception {
    ObjectNode meta = McpJson.object().put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
    meta.set("io.modelcontextprotocol/clientCapabilities", McpJson.mapper().readTree(caps));
    params.set("_meta", meta);
    int id = nextId++;
    ObjectNode request = McpJson.object().put("jsonrpc", "2.0").put("id", id).put("method", method);
    request.set("params", params);
    stdin.write((request + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    while (true) {
      String line = lines.poll(20, TimeUnit.SECONDS);
      assertThat(line).as("response to " + method).isNotNull();
      JsonNode message = McpJson.mapper().readTree(line);
      assertThat(message.has("method") && message.has("id"))
          .as("the server sent a request on a 2026 pipe: " + line)
          .isFalse();
      if (message.has("id") && message.get("id").asInt() == id) {
        return message;
      }
    }
  }

  private JsonNode tool(String name, String caps, ObjectNode extra) throws Exception {
    ObjectNode p = McpJson.object().put("name", name);
    p.putObject("arguments");
    p.setAll(extra);
    return send("tools/call", p, caps);
  }

  private static ObjectNode retry(JsonNode inputRequired, ObjectNode responses) {
    ObjectNode extra = McpJson.object();
    extra.set("inputResponses", responses);
    extra.put("requestState", inputRequired.get("requestState").stringValue());
    return extra;
  }

  private static ObjectNode accept(String field, Object value) {
    ObjectNode r = McpJson.object().put("action", "accept");
    r.set("content", McpJson.object().set(field, McpJson.toTree(value)));
    return r;
  }

  private static ObjectNode sampled(String text) {
    ObjectNode r = McpJson.object().put("role", "assistant").put("model", "test-model");
    r.put("stopReason", "endTurn");
    r.putObject("content").put("type", "text").put("text", text);
    return r;
  }

  private static ObjectNode roots() {
    ObjectNode r = McpJson.object();
    r.putArray("roots").addObject().put("uri", "file:///test/root").put("name", "Test Root");
    return r;
  }

  private static String text(JsonNode response) {
    assertThat(response.has("result")).as(response.toString()).isTrue();
    return response.get("result").get("content").get(0).get("text").stringValue();
  }

  private static JsonNode inputRequired(JsonNode response) {
    assertThat(response.has("result")).as(response.toString()).isTrue();
    JsonNode r = response.get("result");
    assertThat(r.get("resultType").stringValue()).isEqualTo("input_required");
    assertThat(r.get("requestState").isString()).isTrue();
    return r;
  }

  @Test
  void eachInputRequiredToolAsksWithTheScenariosKeysAndCompletesOnTheRetry() throws Exception {
    JsonNode r1 =
        inputRequired(tool("test_input_required_result_elicitation", ALL_CAPS, McpJson.object()));
    assertThat(r1.get("inputRequests").get("user_name").get("method").stringValue())
        .isEqualTo("elicitation/create");
    assertThat(
            text(
                tool(
                    "test_input_required_result_elicitation",
                    ALL_CAPS,
                    retry(r1, McpJson.object().set("user_name", accept("name", "Alice"))))))
        .isEqualTo("Hello, Alice!");

    JsonNode s1 =
        inputRequired(tool("test_input_required_result_sampling", ALL_CAPS, McpJson.object()));
    assertThat(s1.get("inputRequests").get("capital_question").get("method").stringValue())
        .isEqualTo("sampling/createMessage");
    assertThat(
            text(
                tool(
                    "test_input_required_result_sampling",
                    ALL_CAPS,
                    retry(s1, McpJson.object().set("capital_question", sampled("Paris"))))))
        .contains("Paris");

    JsonNode l1 =
        inputRequired(tool("test_input_required_result_list_roots", ALL_CAPS, McpJson.object()));
    assertThat(l1.get("inputRequests").get("client_roots").get("method").stringValue())
        .isEqualTo("roots/list");
    assertThat(
            text(
                tool(
                    "test_input_required_result_list_roots",
                    ALL_CAPS,
                    retry(l1, McpJson.object().set("client_roots", roots())))))
        .contains("file:///test/root");

    JsonNode c1 =
        inputRequired(tool("test_input_required_result_request_state", ALL_CAPS, McpJson.object()));
    assertThat(
            text(
                tool(
                    "test_input_required_result_request_state",
                    ALL_CAPS,
                    retry(c1, McpJson.object().set("confirm", accept("ok", true))))))
        .contains("state-ok");

    JsonNode m1 =
        inputRequired(
            tool("test_input_required_result_multiple_inputs", ALL_CAPS, McpJson.object()));
    assertThat(m1.get("inputRequests").propertyNames())
        .containsExactly("user_name", "greeting", "client_roots");
    ObjectNode all = McpJson.object();
    all.set("user_name", accept("name", "Alice"));
    all.set("greeting", sampled("Hello there!"));
    all.set("client_roots", roots());
    assertThat(text(tool("test_input_required_result_multiple_inputs", ALL_CAPS, retry(m1, all))))
        .isEqualTo("name=Alice, greeting=Hello there!, roots=1");
  }

  @Test
  void theMultiRoundToolAsksTwiceWithAFreshStateEachRound() throws Exception {
    String name = "test_input_required_result_multi_round";
    JsonNode r1 = inputRequired(tool(name, ALL_CAPS, McpJson.object()));
    assertThat(r1.get("inputRequests").propertyNames()).containsExactly("step1");
    JsonNode r2 =
        inputRequired(
            tool(
                name, ALL_CAPS, retry(r1, McpJson.object().set("step1", accept("name", "Alice")))));
    assertThat(r2.get("inputRequests").propertyNames()).containsExactly("step2");
    assertThat(r2.get("requestState").stringValue())
        .isNotEqualTo(r1.get("requestState").stringValue());
    assertThat(
            text(
                tool(
                    name,
                    ALL_CAPS,
                    retry(r2, McpJson.object().set("step2", accept("color", "blue"))))))
        .isEqualTo("Alice's favorite color is blue");
  }

  @Test
  void thePromptAsksTooAndListsNeverDo() throws Exception {
    ObjectNode get = McpJson.object().put("name", "test_input_required_result_prompt");
    JsonNode p1 = inputRequired(send("prompts/get", get, ALL_CAPS));
    assertThat(p1.get("inputRequests").propertyNames()).containsExactly("user_context");
    ObjectNode again = McpJson.object().put("name", "test_input_required_result_prompt");
    again.setAll(retry(p1, McpJson.object().set("user_context", accept("context", "tests"))));
    JsonNode p2 = send("prompts/get", again, ALL_CAPS);
    assertThat(p2.get("result").get("messages").get(0).get("content").get("text").stringValue())
        .isEqualTo("Use this context: tests");

    for (String list : List.of("tools/list", "prompts/list")) {
      JsonNode r = send(list, McpJson.object(), ALL_CAPS);
      assertThat(r.get("result").has("inputRequests")).isFalse();
    }
  }

  @Test
  void missingAnswersAreAskedAgainAndATamperedStateIsRefused() throws Exception {
    String name = "test_input_required_result_elicitation";
    ObjectNode wrong = McpJson.object();
    wrong.set("inputResponses", McpJson.object().set("wrong_key", accept("data", "wrong")));
    JsonNode again = inputRequired(tool(name, ALL_CAPS, wrong));
    assertThat(again.get("inputRequests").propertyNames()).containsExactly("user_name");

    JsonNode t1 =
        inputRequired(
            tool("test_input_required_result_tampered_state", ALL_CAPS, McpJson.object()));
    ObjectNode tampered = retry(t1, McpJson.object().set("confirm", accept("ok", true)));
    tampered.put("requestState", t1.get("requestState").stringValue() + "-TAMPERED");
    JsonNode refused = tool("test_input_required_result_tampered_state", ALL_CAPS, tampered);
    assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
  }

  @Test
  void anAskTheRequestDidNotDeclareIsRefusedWithMissingRequiredClientCapability() throws Exception {
    JsonNode refused = tool("test_missing_capability", "{}", McpJson.object());
    assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32021);
    assertThat(refused.get("error").get("data").get("requiredCapabilities").has("sampling"))
        .isTrue();
    JsonNode asked =
        inputRequired(tool("test_streaming_elicitation", "{\"elicitation\":{}}", McpJson.object()));
    assertThat(asked.get("inputRequests").propertyNames()).containsExactly("user_name");
  }

  @Test
  void theSameToolsServeAHandshakeEraClientThroughServerToClientRequests() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .info("handshake-era", "1")
            .elicitation((params, context) -> {
              String field =
                  params.requestedSchema().get("properties").propertyNames().iterator().next();
              return ElicitResult.accept(
                  McpJson.object().put(field, field.equals("name") ? "Alice" : "blue"));
            })
            .roots(List.of(Root.of("file:///test/root", "Test Root")))
            .connect(
                SubprocessTransport.builder(
                        HeraldJar.command(List.of("-Xmx96m"), "serve", "--stdio"))
                    .build())) {
      assertThat(
              client
                  .callTool("test_input_required_result_elicitation", McpJson.object())
                  .firstText())
          .isEqualTo("Hello, Alice!");
      assertThat(
              client
                  .callTool("test_input_required_result_multi_round", McpJson.object())
                  .firstText())
          .isEqualTo("Alice's favorite color is blue");
      assertThat(
              client
                  .callTool("test_input_required_result_list_roots", McpJson.object())
                  .firstText())
          .isEqualTo("Client roots: file:///test/root");
    }
  }

  @Test
  void theCapabilitiesToolAsksOnlyWhatTheRequestDeclared() throws Exception {
    JsonNode r =
        inputRequired(
            tool("test_input_required_result_capabilities", "{\"sampling\":{}}", McpJson.object()));
    assertThat(r.get("inputRequests").propertyNames()).containsExactly("capital_question");
  }
}
