package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.internal.session.SessionEngine;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Role;
import dev.herald.wire.Root;
import dev.herald.wire.SamplingMessage;
import dev.herald.wire.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Multi round-trip requests (MCP 2026-07-28 basic/patterns/mrtr): a handler's asks become an
 * {@code InputRequiredResult} with a signed {@code requestState} in a stateless request, and stay
 * reverse requests in a handshake-era session.
 */
class InputRoundsTest {
  private static final ObjectNode NAME_SCHEMA = schema("name");
  private static final ObjectNode COLOR_SCHEMA = schema("color");

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private static ObjectNode schema(String field) {
    ObjectNode s = McpJson.object().put("type", "object");
    s.putObject("properties").putObject(field).put("type", "string");
    s.putArray("required").add(field);
    return s;
  }

  private static final ResourceHandler ASKS_ROOTS =
      read -> {
        List<Root> roots = read.context().listRoots("roots");
        return dev.herald.wire.ReadResourceResult.of(
            dev.herald.wire.ResourceContents.text(read.uri(), "text/plain", roots.get(0).uri()));
      };

  static McpServer.Builder fixture() {
    return McpServer.builder()
        .tool(
            Tool.builder("greet").build(),
            call -> {
              ElicitResult r =
                  call.context().elicit("user_name", ElicitParams.form("Your name?", NAME_SCHEMA));
              return CallToolResult.text("Hello, " + r.content().get("name").stringValue() + "!");
            })
        .tool(
            Tool.builder("two_steps").build(),
            call -> {
              ElicitResult name = call.context().elicit(ElicitParams.form("Name?", NAME_SCHEMA));
              ElicitResult color = call.context().elicit(ElicitParams.form("Color?", COLOR_SCHEMA));
              return CallToolResult.text(
                  name.content().get("name").stringValue()
                      + " likes "
                      + color.content().get("color").stringValue());
            })
        .tool(
            Tool.builder("all_three").build(),
            call -> {
              Map<String, InputRequest> asks = new LinkedHashMap<>();
              asks.put("user_name", InputRequest.elicit(ElicitParams.form("Name?", NAME_SCHEMA)));
              asks.put(
                  "greeting",
                  InputRequest.createMessage(
                      CreateMessageParams.of(List.of(SamplingMessage.user("Greet")), 50)));
              asks.put("client_roots", InputRequest.listRoots());
              InputResponses a = call.context().ask(asks);
              return CallToolResult.text(
                  a.elicit("user_name").content().get("name").stringValue()
                      + " / "
                      + ((ContentBlock.Text) a.createMessage("greeting").blocks().get(0)).text()
                      + " / "
                      + a.listRoots("client_roots").roots().get(0).uri());
            })
        .tool(
            Tool.builder("what_it_can").build(),
            call -> {
              RequestContext ctx = call.context();
              InputRequest elicit = InputRequest.elicit(ElicitParams.form("Name?", NAME_SCHEMA));
              InputRequest sample =
                  InputRequest.createMessage(
                      CreateMessageParams.of(List.of(SamplingMessage.user("Name?")), 20));
              Map<String, InputRequest> asks = new LinkedHashMap<>();
              if (ctx.canAsk(elicit)) {
                asks.put("elicited", elicit);
              }
              if (ctx.canAsk(sample)) {
                asks.put("sampled", sample);
              }
              return CallToolResult.text("asked " + ctx.ask(asks).keys());
            })
        .tool(
            Tool.builder("wraps_everything").build(),
            call -> {
              try {
                return CallToolResult.text(
                    call.context()
                        .elicit("user_name", ElicitParams.form("Name?", NAME_SCHEMA))
                        .action()
                        .wire());
              } catch (RuntimeException e) {
                throw new IllegalStateException("wrapped", e); // a careless handler
              }
            })
        .tool(
            Tool.builder("own_state").build(),
            call -> {
              RequestContext ctx = call.context();
              ElicitResult answer = ctx.inputResponses().elicit("confirm");
              if (answer == null) {
                throw new InputRequired(
                    Map.of("confirm", InputRequest.elicit(ElicitParams.form("Sure?", NAME_SCHEMA))),
                    "checkpoint-7");
              }
              return CallToolResult.text(
                  "state " + ctx.requestState() + ", " + answer.action().wire());
            })
        .resource(dev.herald.wire.Resource.of("test://asks", "asks", "text/plain"), ASKS_ROOTS)
        .resource(dev.herald.wire.Resource.of("test://asks2", "asks2", "text/plain"), ASKS_ROOTS)
        .prompt(
            Prompt.of("asking_prompt", "asks for context", List.of()),
            get -> {
              ElicitResult r =
                  get.context().elicit("user_context", ElicitParams.form("Context?", NAME_SCHEMA));
              return GetPromptResult.of(
                  null,
                  List.of(PromptMessage.user("Use " + r.content().get("name").stringValue())));
            });
  }

  // ---- a stateless client ----

  private SessionEngine modernClient(McpServer server) {
    MemoryTransport[] wire = MemoryTransport.pair();
    server.connect(wire[1]);
    SessionEngine client =
        SessionEngine.builder()
            .name("modern-client")
            .transport(wire[0])
            .requests(call -> McpJson.object())
            .build();
    client.start();
    open.add(client::close);
    return client;
  }

  private static ObjectNode caps(String... names) {
    ObjectNode c = McpJson.object();
    for (String n : names) {
      c.putObject(n);
    }
    return c;
  }

  private static ObjectNode call(String tool, ObjectNode caps) {
    ObjectNode meta =
        McpJson.object().put(MetaKeys.PROTOCOL_VERSION, ProtocolVersion.V2026_07_28.wire());
    meta.set(MetaKeys.CLIENT_CAPABILITIES, caps);
    ObjectNode p = McpJson.object().put("name", tool);
    p.putObject("arguments");
    p.set("_meta", meta);
    return p;
  }

  private static ObjectNode call(String tool) {
    return call(tool, caps("elicitation", "sampling", "roots"));
  }

  private static ObjectNode retry(ObjectNode first, JsonNode previous, ObjectNode responses) {
    ObjectNode p = first.deepCopy();
    p.set("inputResponses", responses);
    if (previous.has("requestState")) {
      p.put("requestState", previous.get("requestState").stringValue());
    }
    return p;
  }

  private static JsonNode send(SessionEngine client, String method, ObjectNode params)
      throws Exception {
    return Peers.await(client.request(method, params).result());
  }

  private static McpException refused(SessionEngine client, String method, ObjectNode params)
      throws Exception {
    try {
      JsonNode r = send(client, method, params);
      throw new AssertionError(method + " succeeded with " + r);
    } catch (McpException e) {
      return e;
    }
  }

  private static ObjectNode accept(String field, String value) {
    return (ObjectNode) McpJson.toTree(ElicitResult.accept(McpJson.object().put(field, value)));
  }

  private static String text(JsonNode result) {
    return result.get("content").get(0).get("text").stringValue();
  }

  // ---- stateless rounds ----

  @Test
  void anAskInAStatelessCallIsAnInputRequiredResultAndTheRetryGetsTheAnswer() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("greet");

    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    assertThat(r1.get("resultType").stringValue()).isEqualTo("input_required");
    assertThat(r1.get("inputRequests").get("user_name").get("method").stringValue())
        .isEqualTo("elicitation/create");
    assertThat(r1.get("inputRequests").get("user_name").get("params").get("message").stringValue())
        .isEqualTo("Your name?");
    assertThat(r1.get("requestState").stringValue()).matches("[A-Za-z0-9_.-]+");
    assertThat(r1.has("ttlMs")).isFalse();

    JsonNode r2 =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().set("user_name", accept("name", "Ada"))));
    assertThat(r2.has("resultType") && r2.get("resultType").stringValue().equals("input_required"))
        .isFalse();
    assertThat(text(r2)).isEqualTo("Hello, Ada!");
  }

  @Test
  void answersOfEarlierRoundsTravelInTheSignedStateAcrossSeveralRounds() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("two_steps");

    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    String key1 = r1.get("inputRequests").propertyNames().iterator().next();
    JsonNode r2 =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().set(key1, accept("name", "Ada"))));
    assertThat(r2.get("resultType").stringValue()).isEqualTo("input_required");
    String key2 = r2.get("inputRequests").propertyNames().iterator().next();
    assertThat(key2).isNotEqualTo(key1);
    assertThat(r2.get("inputRequests").get(key2).get("params").get("message").stringValue())
        .isEqualTo("Color?");
    assertThat(r2.get("requestState").stringValue())
        .isNotEqualTo(r1.get("requestState").stringValue());

    // the last retry carries only the last answer: the first one comes from the state
    JsonNode r3 =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r2, McpJson.object().set(key2, accept("color", "blue"))));
    assertThat(text(r3)).isEqualTo("Ada likes blue");
  }

  @Test
  void severalInputsCanBeAskedInOneRound() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("all_three");

    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    assertThat(r1.get("inputRequests").propertyNames())
        .containsExactly("user_name", "greeting", "client_roots");
    assertThat(r1.get("inputRequests").get("greeting").get("method").stringValue())
        .isEqualTo("sampling/createMessage");
    assertThat(r1.get("inputRequests").get("client_roots").get("method").stringValue())
        .isEqualTo("roots/list");

    ObjectNode answers = McpJson.object();
    answers.set("user_name", accept("name", "Ada"));
    answers.set(
        "greeting",
        McpJson.toTree(
            CreateMessageResult.of(
                Role.ASSISTANT,
                (dev.herald.wire.SamplingContent) ContentBlock.text("Hi there"),
                "m",
                CreateMessageResult.StopReason.END_TURN)));
    answers.set(
        "client_roots", McpJson.toTree(ListRootsResult.of(List.of(Root.of("file:///r", "r")))));
    JsonNode r2 = send(client, McpMethods.TOOLS_CALL, retry(first, r1, answers));
    assertThat(text(r2)).isEqualTo("Ada / Hi there / file:///r");
  }

  @Test
  void aRetryWithoutTheAnswerIsAskedAgainAndUnknownExtraAnswersAreIgnored() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);

    JsonNode again =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().set("wrong_key", accept("x", "y"))));
    assertThat(again.get("resultType").stringValue()).isEqualTo("input_required");
    assertThat(again.get("inputRequests").propertyNames()).containsExactly("user_name");

    ObjectNode withExtras = McpJson.object();
    withExtras.set("user_name", accept("name", "Ada"));
    withExtras.set("unknown_extra_key", accept("foo", "bar"));
    withExtras.put("another_unexpected", 12345);
    assertThat(text(send(client, McpMethods.TOOLS_CALL, retry(first, again, withExtras))))
        .isEqualTo("Hello, Ada!");
  }

  @Test
  void aHandlerThatCatchesAndWrapsTheSignalOfAnAskStillAsks() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("wraps_everything");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    assertThat(r1.get("resultType").stringValue()).isEqualTo("input_required");
    assertThat(r1.get("inputRequests").propertyNames()).containsExactly("user_name");
    JsonNode r2 =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().set("user_name", accept("name", "Ada"))));
    assertThat(text(r2)).isEqualTo("accept");
  }

  @Test
  void anAnswerOfTheWrongShapeIsInvalidParams() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);

    McpException e =
        refused(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().put("user_name", 12345)));
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(e.getMessage()).contains("inputResponses[\"user_name\"]");
  }

  @Test
  void aHandlerThatKeepsItsOwnStateGetsItBackSigned() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("own_state");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    assertThat(r1.get("inputRequests").propertyNames()).containsExactly("confirm");

    JsonNode r2 =
        send(
            client,
            McpMethods.TOOLS_CALL,
            retry(first, r1, McpJson.object().set("confirm", accept("name", "ok"))));
    assertThat(text(r2)).isEqualTo("state checkpoint-7, accept");
  }

  @Test
  void promptsGetAsksTheSameWay() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("asking_prompt");
    first.remove("arguments");
    JsonNode r1 = send(client, McpMethods.PROMPTS_GET, first);
    assertThat(r1.get("inputRequests").propertyNames()).containsExactly("user_context");

    JsonNode r2 =
        send(
            client,
            McpMethods.PROMPTS_GET,
            retry(first, r1, McpJson.object().set("user_context", accept("name", "tests"))));
    assertThat(r2.get("messages").get(0).get("content").get("text").stringValue())
        .isEqualTo("Use tests");
  }

  @Test
  void resourcesReadAsksTheSameWayAndItsStateIsBoundToTheUri() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("unused");
    first.remove("name");
    first.remove("arguments");
    first.put("uri", "test://asks");
    JsonNode r1 = send(client, McpMethods.RESOURCES_READ, first);
    assertThat(r1.get("resultType").stringValue()).isEqualTo("input_required");
    assertThat(r1.get("inputRequests").get("roots").get("method").stringValue())
        .isEqualTo("roots/list");

    ObjectNode answers =
        McpJson.object()
            .set("roots", McpJson.toTree(ListRootsResult.of(List.of(Root.of("file:///w", "w")))));
    JsonNode r2 = send(client, McpMethods.RESOURCES_READ, retry(first, r1, answers));
    assertThat(r2.get("contents").get(0).get("text").stringValue()).isEqualTo("file:///w");

    ObjectNode elsewhere = retry(first, r1, answers);
    elsewhere.put("uri", "test://asks2");
    McpException e = refused(client, McpMethods.RESOURCES_READ, elsewhere);
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(e.getMessage()).contains("issued for a different request");
  }

  // ---- the state is attacker-controlled ----

  @Test
  void aTamperedStateIsRefused() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    String state = r1.get("requestState").stringValue();
    ObjectNode answers = McpJson.object().set("user_name", accept("name", "Ada"));

    for (String forged :
        List.of(
            state + "-TAMPERED",
            lastChar(state, 'A'),
            lastChar(state, 'B'),
            lastChar(state, 'C'),
            lastChar(state, 'D'),
            middleChar(state),
            state.replace(".p.", ".q."),
            "hs1.p.e30.AAAA",
            "not a state",
            "")) {
      if (forged.equals(state)) {
        continue;
      }
      ObjectNode p = retry(first, r1, answers);
      p.put("requestState", forged);
      McpException e = refused(client, McpMethods.TOOLS_CALL, p);
      assertThat(e.code()).as(forged).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(e.getMessage()).contains("requestState is not one this server issued");
    }
  }

  private static String lastChar(String s, char c) {
    return s.substring(0, s.length() - 1) + c;
  }

  private static String middleChar(String s) {
    int i = s.length() / 3;
    return s.substring(0, i) + (s.charAt(i) == 'x' ? 'y' : 'x') + s.substring(i + 1);
  }

  @Test
  void aStateUsedForAnotherToolOrOtherArgumentsIsRefused() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    ObjectNode answers = McpJson.object().set("user_name", accept("name", "Ada"));

    ObjectNode otherTool = retry(call("own_state"), r1, answers);
    ObjectNode otherArgs = retry(first, r1, answers);
    otherArgs.putObject("arguments").put("admin", true);
    ObjectNode otherMethod = retry(call("asking_prompt"), r1, answers);
    otherMethod.remove("arguments");

    for (var attempt :
        List.of(
            Map.entry(McpMethods.TOOLS_CALL, otherTool),
            Map.entry(McpMethods.TOOLS_CALL, otherArgs),
            Map.entry(McpMethods.PROMPTS_GET, otherMethod))) {
      McpException e = refused(client, attempt.getKey(), attempt.getValue());
      assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(e.getMessage()).contains("issued for a different request");
    }
  }

  @Test
  void anExpiredStateIsRefused() throws Exception {
    MutableClock clock = new MutableClock();
    McpServer server =
        fixture()
            .requestState(
                RequestStateSettings.builder()
                    .signingKey("k1", new byte[32])
                    .ttl(Duration.ofMinutes(2))
                    .clock(clock)
                    .build())
            .build();
    SessionEngine client = modernClient(server);
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    ObjectNode answers = McpJson.object().set("user_name", accept("name", "Ada"));

    clock.now = clock.now.plus(Duration.ofMinutes(2));
    assertThat(text(send(client, McpMethods.TOOLS_CALL, retry(first, r1, answers))))
        .isEqualTo("Hello, Ada!");
    clock.now = clock.now.plusMillis(1);
    McpException e = refused(client, McpMethods.TOOLS_CALL, retry(first, r1, answers));
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(e.getMessage()).contains("requestState has expired");
  }

  @Test
  void anOlderKeyStillVerifiesAfterRotationAndAnUnknownKeyDoesNot() throws Exception {
    byte[] oldKey = new byte[32];
    byte[] newKey = new byte[32];
    newKey[0] = 1;
    McpServer before =
        fixture()
            .requestState(RequestStateSettings.builder().signingKey("old", oldKey).build())
            .build();
    McpServer after =
        fixture()
            .requestState(
                RequestStateSettings.builder()
                    .signingKey("new", newKey)
                    .verifyingKey("old", oldKey)
                    .build())
            .build();
    McpServer stranger =
        fixture()
            .requestState(RequestStateSettings.builder().signingKey("new", newKey).build())
            .build();
    ObjectNode first = call("greet");
    JsonNode r1 = send(modernClient(before), McpMethods.TOOLS_CALL, first);
    ObjectNode answers = McpJson.object().set("user_name", accept("name", "Ada"));

    assertThat(text(send(modernClient(after), McpMethods.TOOLS_CALL, retry(first, r1, answers))))
        .isEqualTo("Hello, Ada!");
    McpException e =
        refused(modernClient(stranger), McpMethods.TOOLS_CALL, retry(first, r1, answers));
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
  }

  @Test
  void aStateIssuedToOnePrincipalIsRefusedForAnother() throws Exception {
    AtomicReference<String> who = new AtomicReference<>("alice");
    McpServer server =
        fixture()
            .requestState(RequestStateSettings.builder().principal(ctx -> who.get()).build())
            .build();
    SessionEngine client = modernClient(server);
    ObjectNode first = call("greet");
    JsonNode r1 = send(client, McpMethods.TOOLS_CALL, first);
    ObjectNode answers = McpJson.object().set("user_name", accept("name", "Ada"));

    who.set("mallory");
    McpException e = refused(client, McpMethods.TOOLS_CALL, retry(first, r1, answers));
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(e.getMessage()).contains("different principal");
    who.set("alice");
    assertThat(text(send(client, McpMethods.TOOLS_CALL, retry(first, r1, answers))))
        .isEqualTo("Hello, Ada!");
  }

  @Test
  void aTooLongStateIsRefusedBeforeAnythingElse() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode p = call("greet");
    p.put("requestState", "x".repeat(RequestStateSettings.DEFAULT_MAX_LENGTH + 1));
    McpException e = refused(client, McpMethods.TOOLS_CALL, p);
    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(e.getMessage()).contains("longer than");
  }

  // ---- capabilities ----

  @Test
  void anAskTheRequestDidNotDeclareIsMissingRequiredClientCapability() throws Exception {
    SessionEngine client = modernClient(fixture().build());

    McpException e = refused(client, McpMethods.TOOLS_CALL, call("greet", caps("sampling")));
    assertThat(e.code()).isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
    assertThat(e.data().get("requiredCapabilities").has("elicitation")).isTrue();

    McpException all = refused(client, McpMethods.TOOLS_CALL, call("all_three", caps()));
    assertThat(all.data().get("requiredCapabilities").propertyNames())
        .containsExactlyInAnyOrder("elicitation", "sampling", "roots");
  }

  @Test
  void aHandlerAsksOnlyWhatTheRequestDeclared() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    JsonNode r = send(client, McpMethods.TOOLS_CALL, call("what_it_can", caps("sampling")));
    assertThat(r.get("inputRequests").propertyNames()).containsExactly("sampled");
  }

  @Test
  void aStatelessMethodWithoutInputRoundsCannotAsk() throws Exception {
    McpServer server =
        fixture()
            .prompt(
                Prompt.of(
                    "with_arg",
                    "one argument",
                    List.of(dev.herald.wire.PromptArgument.of("a", null, false))),
                get -> GetPromptResult.of(null, List.of()))
            .completion(
                dev.herald.wire.PromptReference.of("with_arg"),
                request -> {
                  request.requestContext().elicit("nope", ElicitParams.form("Name?", NAME_SCHEMA));
                  return List.of();
                })
            .build();
    SessionEngine client = modernClient(server);
    ObjectNode p =
        McpJson.toObject(
            dev.herald.wire.CompleteParams.of(
                dev.herald.wire.PromptReference.of("with_arg"), "a", "b"));
    p.set("_meta", call("x").get("_meta"));
    McpException e = refused(client, McpMethods.COMPLETION_COMPLETE, p);
    assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
    assertThat(e.getMessage()).contains("cannot ask the client for input");
  }

  @Test
  void listMethodsNeverAnswerInputRequired() throws Exception {
    SessionEngine client = modernClient(fixture().build());
    ObjectNode p = call("x");
    p.remove("name");
    p.remove("arguments");
    JsonNode tools = send(client, McpMethods.TOOLS_LIST, p);
    assertThat(tools.has("tools")).isTrue();
    assertThat(tools.has("inputRequests")).isFalse();
  }

  // ---- one handler, both eras ----

  @Test
  void theSameHandlersServeAHandshakeEraSessionThroughReverseRequests() throws Exception {
    ClientCapabilities all =
        new ClientCapabilities(
            null,
            new ClientCapabilities.Roots(null),
            McpJson.object(),
            McpJson.object(),
            null,
            null);
    Peers.RawPeer peer =
        Peers.connectRaw(
            fixture().build(),
            all,
            c ->
                switch (c.method()) {
                  case McpMethods.ELICITATION_CREATE -> {
                    String field =
                        c.params()
                            .get("requestedSchema")
                            .get("properties")
                            .propertyNames()
                            .iterator()
                            .next();
                    yield accept(field, field.equals("name") ? "Ada" : "green");
                  }
                  case McpMethods.SAMPLING_CREATE_MESSAGE ->
                      McpJson.toTree(
                          CreateMessageResult.of(
                              Role.ASSISTANT,
                              (dev.herald.wire.SamplingContent) ContentBlock.text("Hi there"),
                              "m",
                              CreateMessageResult.StopReason.END_TURN));
                  case McpMethods.ROOTS_LIST ->
                      McpJson.toTree(ListRootsResult.of(List.of(Root.of("file:///r", "r"))));
                  default -> throw McpException.methodNotFound(c.method());
                });
    open.add(peer);
    ObjectNode noMeta = McpJson.object().put("name", "greet");
    assertThat(text(peer.request(McpMethods.TOOLS_CALL, noMeta))).isEqualTo("Hello, Ada!");
    assertThat(text(peer.request(McpMethods.TOOLS_CALL, McpJson.object().put("name", "two_steps"))))
        .isEqualTo("Ada likes green");
    assertThat(text(peer.request(McpMethods.TOOLS_CALL, McpJson.object().put("name", "all_three"))))
        .isEqualTo("Ada / Hi there / file:///r");
    assertThat(text(peer.request(McpMethods.TOOLS_CALL, McpJson.object().put("name", "own_state"))))
        .isEqualTo("state checkpoint-7, accept");
    assertThat(peer.wire().requests(McpMethods.ELICITATION_CREATE)).hasSize(5);
  }

  @Test
  void aHandshakeEraSessionWithoutTheCapabilityKeepsMethodNotFound() throws Exception {
    Peers.RawPeer peer =
        Peers.connectRaw(fixture().build(), ClientCapabilities.none(), c -> McpJson.object());
    open.add(peer);
    try {
      JsonNode r = peer.request(McpMethods.TOOLS_CALL, McpJson.object().put("name", "greet"));
      throw new AssertionError("succeeded with " + r);
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    }
    assertThat(peer.wire().requests(McpMethods.ELICITATION_CREATE)).isEmpty();
  }

  /** A settable wall clock. */
  private static final class MutableClock extends Clock {
    Instant now = Instant.parse("2026-12-01T12:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
