package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static dev.herald.wire.WireJson.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Golden JSON from the 2026-07-28 schema examples and basic/index, discover, subscriptions and mrtr pages. */
class ModernWireTest {

  @Test
  void discoverResultRoundTripsAndExposesServerInfo() {
    DiscoverResult r =
        assertRoundTrip(
            """
            {"resultType":"complete","supportedVersions":["2026-07-28"],
             "capabilities":{"tools":{},"resources":{}},
             "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.0.0"}},
             "instructions":"This server provides weather and resource utilities. Prefer `get_weather` for forecast lookups.",
             "ttlMs":3600000,"cacheScope":"public"}
            """,
            DiscoverResult.class,
            "resultType");
    assertThat(r.serverInfo()).isEqualTo(Implementation.of("ExampleServer", "1.0.0"));
    assertThat(r.effectiveTtlMs()).isEqualTo(3_600_000L);
  }

  @Test
  void requestMetaKeysReadTyped() {
    ObjectNode meta =
        (ObjectNode)
            tree(
                """
                {"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                 "io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},
                 "io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}},
                 "io.modelcontextprotocol/logLevel":"warning","progressToken":"p1","traceparent":"00-abc-def-01"}
                """);
    assertThat(MetaKeys.protocolVersion(meta)).isEqualTo("2026-07-28");
    assertThat(MetaKeys.clientInfo(meta).name()).isEqualTo("ExampleClient");
    assertThat(MetaKeys.clientCapabilities(meta).supportsExtension(TasksExtension.ID)).isTrue();
    assertThat(MetaKeys.logLevel(meta)).isEqualTo("warning");
    assertThat(MetaKeys.progressToken(meta)).isEqualTo(ProgressToken.of("p1"));
    assertThat(MetaKeys.string(meta, MetaKeys.TRACEPARENT)).isEqualTo("00-abc-def-01");
    assertThat(MetaKeys.protocolVersion(null)).isNull();
    assertThat(MetaKeys.progressToken((ObjectNode) tree("{\"progressToken\":1.5}"))).isNull();
  }

  @Test
  void callToolRequestMetaSurvivesWhole() {
    CallToolParams p =
        assertRoundTrip(
            """
            {"name":"get_weather","arguments":{"location":"Seattle"},
             "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                      "io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},
                      "io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1",
                      "com.example/unknown":{"deep":[{"n":12345678901234567890}]}}}
            """,
            CallToolParams.class);
    assertThat(p.meta().get("com.example/unknown").get("deep").get(0).get("n").bigIntegerValue())
        .hasToString("12345678901234567890");
  }

  @Test
  void subscriptionsListenParamsRoundTrip() {
    SubscriptionsListenParams p =
        assertRoundTrip(
            """
            {"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                      "io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},
                      "io.modelcontextprotocol/clientCapabilities":{}},
             "notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///project/config.json"]}}
            """,
            SubscriptionsListenParams.class);
    assertThat(p.notifications().wantsToolsListChanged()).isTrue();
    assertThat(p.notifications().wantsPromptsListChanged()).isFalse();
    assertThat(p.notifications().promptsListChanged()).isNull();
    assertThat(p.notifications().resourceSubscriptionsOrEmpty())
        .containsExactly("file:///project/config.json");
  }

  @Test
  void acknowledgementAndListenResultCarryTheSubscriptionId() {
    SubscriptionsAcknowledgedParams ack =
        assertRoundTrip(
            """
            {"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},
             "notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///project/config.json"],"taskIds":["t1"]}}
            """,
            SubscriptionsAcknowledgedParams.class);
    assertThat(ack.subscriptionId()).isEqualTo(RequestId.of("listen-1"));
    assertThat(ack.notifications().taskIdsOrEmpty()).containsExactly("t1");

    SubscriptionsListenResult done =
        assertRoundTrip(
            """
            {"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":1}}
            """,
            SubscriptionsListenResult.class,
            "resultType");
    assertThat(done.subscriptionId()).isEqualTo(RequestId.of(1));
    assertSameJson(
        SubscriptionsListenResult.of(RequestId.of("1")),
        "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"1\"}}");
    assertSameJson(
        SubscriptionsAcknowledgedParams.of(SubscriptionFilter.none(), RequestId.of(1)),
        "{\"notifications\":{},\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":1}}");
  }

  @Test
  void listenResultWithoutSubscriptionIdIsRefused() {
    assertThatThrownBy(() -> decode("{\"_meta\":{}}", SubscriptionsListenResult.class))
        .isInstanceOf(McpException.class);
    assertThatThrownBy(() -> decode("{}", SubscriptionsListenResult.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void inputRequiredResultRoundTripsAndDispatchesInputRequestsByMethod() {
    InputRequiredResult r =
        assertRoundTrip(
            """
            {"resultType":"input_required",
             "inputRequests":{
               "github_login":{"method":"elicitation/create","params":{"message":"Please provide your GitHub username",
                 "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
               "capital_of_france":{"method":"sampling/createMessage","params":{"messages":[
                 {"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}},
               "roots":{"method":"roots/list"}},
             "requestState":"eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"}
            """,
            InputRequiredResult.class);
    InputRequests requests = r.inputRequests();
    assertThat(requests.keys()).containsExactly("github_login", "capital_of_france", "roots");
    assertThat(requests.get("github_login"))
        .isInstanceOfSatisfying(
            InputRequest.Elicit.class,
            e -> assertThat(e.params().message()).isEqualTo("Please provide your GitHub username"));
    assertThat(requests.get("capital_of_france"))
        .isInstanceOfSatisfying(
            InputRequest.CreateMessage.class,
            c -> assertThat(c.params().maxTokens()).isEqualTo(100));
    assertThat(requests.get("roots")).isInstanceOf(InputRequest.ListRoots.class);
    assertThat(requests.method("roots")).isEqualTo(McpMethods.ROOTS_LIST);
    assertThat(requests.get("missing")).isNull();
  }

  @Test
  void inputRequiredResultWithStateOnlyRoundTrips() {
    InputRequiredResult r =
        assertRoundTrip(
            """
            {"resultType":"input_required","requestState":"eyJwcm9ncmVzcyI6IjUwJSIsInN0YXRlIjoicHJvY2Vzc2luZyJ9"}
            """,
            InputRequiredResult.class);
    assertThat(r.inputRequests()).isNull();
  }

  @Test
  void inputRequiredResultRefusesOtherResultTypesAndEmptiness() {
    assertThatThrownBy(() ->
            decode(
                "{\"resultType\":\"complete\",\"requestState\":\"x\"}", InputRequiredResult.class))
        .isInstanceOf(McpException.class);
    assertThatThrownBy(
            () -> decode("{\"resultType\":\"input_required\"}", InputRequiredResult.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void unknownInputRequestMethodSurvivesUntilRead() {
    InputRequiredResult r =
        assertRoundTrip(
            """
            {"resultType":"input_required","inputRequests":{"k":{"method":"future/thing","params":{"a":1}}}}
            """,
            InputRequiredResult.class);
    assertThat(r.inputRequests().method("k")).isEqualTo("future/thing");
    assertThatThrownBy(() -> r.inputRequests().get("k"))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR));
  }

  @Test
  void builtInputRequestsWriteTheEmbeddedShape() {
    Map<String, InputRequest> map = new LinkedHashMap<>();
    map.put(
        "name",
        InputRequest.elicit(ElicitParams.form("Name?", McpJson.object().put("type", "object"))));
    map.put("roots", InputRequest.listRoots());
    InputRequiredResult r = InputRequiredResult.of(InputRequests.of(map), null);
    assertSameJson(
        r,
        """
        {"resultType":"input_required","inputRequests":{
          "name":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object"}}},
          "roots":{"method":"roots/list"}}}
        """);
  }

  @Test
  void inputResponsesReadWithTheMatchingTypedAccessor() {
    CallToolParams retry =
        assertRoundTrip(
            """
            {"name":"get_weather","arguments":{"location":"New York"},
             "inputResponses":{
               "github_login":{"action":"accept","content":{"name":"octocat"}},
               "capital_of_france":{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},
                 "model":"claude-3-sonnet-20240307","stopReason":"endTurn"}},
             "requestState":"eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"}
            """,
            CallToolParams.class);
    InputResponses responses = retry.inputResponses();
    assertThat(responses.keys()).containsExactly("github_login", "capital_of_france");
    assertThat(responses.elicit("github_login").content().get("name").stringValue())
        .isEqualTo("octocat");
    assertThat(responses.createMessage("capital_of_france").model())
        .isEqualTo("claude-3-sonnet-20240307");
    assertThat(responses.elicit("absent")).isNull();
    assertThatThrownBy(() -> responses.elicit("capital_of_france"))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));

    CallToolParams built =
        CallToolParams.of("get_weather", null)
            .retry(InputResponses.of(Map.of("k", ElicitResult.decline())), "s");
    assertSameJson(
        built,
        "{\"name\":\"get_weather\",\"inputResponses\":{\"k\":{\"action\":\"decline\"}},\"requestState\":\"s\"}");
  }

  @Test
  void resultTypeOfAMissingMemberIsComplete() {
    assertThat(ResultType.of(tree("{}"))).isEqualTo(ResultType.COMPLETE);
    assertThat(ResultType.of(tree("{\"resultType\":\"input_required\"}")))
        .isEqualTo(ResultType.INPUT_REQUIRED);
    assertThat(ResultType.of(tree("{\"resultType\":7}"))).isNull();
    ObjectNode stamped =
        ResultType.stamp(McpJson.toObject(CallToolResult.text("x")), ResultType.COMPLETE);
    assertThat(stamped.get("resultType").stringValue()).isEqualTo("complete");
    assertThat(
            ResultType.stamp((ObjectNode) tree("{\"resultType\":\"task\"}"), ResultType.COMPLETE)
                .get("resultType")
                .stringValue())
        .isEqualTo("task");
  }

  @Test
  void listToolsResultGainsCacheHintsAndKeepsItsOldShape() {
    ListToolsResult r =
        assertRoundTrip(
            """
            {"resultType":"complete","tools":[{"name":"get_weather","inputSchema":{"type":"object"}}],
             "ttlMs":0,"cacheScope":"private"}
            """,
            ListToolsResult.class,
            "resultType");
    assertThat(r.ttlMs()).isZero();
    assertSameJson(
        new ListToolsResult(List.of(), "c", null), "{\"tools\":[],\"nextCursor\":\"c\"}");
  }

  @Test
  void emptyResultKeepsOnlyMeta() {
    assertRoundTrip("{}", EmptyResult.class);
    EmptyResult r =
        assertRoundTrip(
            "{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}",
            EmptyResult.class);
    assertThat(MetaKeys.serverInfo(r.meta()).name()).isEqualTo("s");
    assertSameJson(EmptyResult.empty(), "{}");
  }

  @Test
  void listChangedNotificationParamsCarrySubscriptionId() {
    EmptyParams p =
        assertRoundTrip(
            "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"listen-1\"}}",
            EmptyParams.class);
    assertThat(p.subscriptionId()).isEqualTo(RequestId.of("listen-1"));
  }
}
