package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener;
import dev.herald.testing.Eventually;
import dev.herald.wire.CacheScope;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.Prompt;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Stateless (2026-07-28) requests on a session that never saw {@code initialize}: era routing, the
 * decoration of every result, caching hints, per-request logging, resource not found, catalogs
 * that do not vary per connection, and that nothing is ever written to such a session but
 * responses and the notifications of its own requests.
 */
class StatelessRequestsTest {
  private final CountingEventListener events = new CountingEventListener();

  private McpServer.Builder builder() {
    return McpServer.builder()
        .info("stateless-server", "3.1")
        .instructions("be brief")
        .listChangedDebounce(Duration.ZERO)
        .eventListener(events)
        .tool(Tool.builder("echo").build(), call -> CallToolResult.text(call.string("text", "")))
        .tool(
            Tool.builder("chatty").build(),
            call -> {
              call.context().log(LoggingLevel.DEBUG, "debug line");
              call.context().log(LoggingLevel.WARNING, "warning line");
              return CallToolResult.text("done");
            })
        .resource(
            Resource.of("test://a", "a", "text/plain"),
            ResourceHandler.text("text/plain", () -> "A"))
        .resourceTemplate(
            ResourceTemplate.of("test://gone/{id}", "gone", "text/plain"),
            read -> {
              throw ResourceHandler.notFound(read.uri());
            })
        .prompt(
            Prompt.of("p", "a prompt", List.of()),
            get -> dev.herald.wire.GetPromptResult.of(null, List.of()));
  }

  private static String text(JsonNode callResult) {
    return callResult.get("content").get(0).get("text").stringValue();
  }

  @Test
  void aStatelessRequestIsServedWithoutHandshakeAndItsResultSaysCompleteAndNamesTheServer()
      throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      ObjectNode params = StatelessPeer.params();
      params.put("name", "echo").putObject("arguments").put("text", "hi");

      ObjectNode result = peer.request(McpMethods.TOOLS_CALL, params);

      assertThat(text(result)).isEqualTo("hi");
      assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
      assertThat(result.get("_meta").get(MetaKeys.SERVER_INFO).get("name").stringValue())
          .isEqualTo("stateless-server");
      assertThat(result.has("ttlMs")).as("tools/call is not cacheable").isFalse();
      assertThat(peer.session.state()).isEqualTo(ServerSession.State.NEW);
    }
  }

  @Test
  void everyCacheableResultCarriesTheDefaultHintOfZeroMillisecondsPrivate() throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      ObjectNode read = StatelessPeer.params().put("uri", "test://a");
      for (var call :
          List.of(
              List.of(McpMethods.SERVER_DISCOVER, StatelessPeer.params()),
              List.of(McpMethods.TOOLS_LIST, StatelessPeer.params()),
              List.of(McpMethods.PROMPTS_LIST, StatelessPeer.params()),
              List.of(McpMethods.RESOURCES_LIST, StatelessPeer.params()),
              List.of(McpMethods.RESOURCES_TEMPLATES_LIST, StatelessPeer.params()),
              List.of(McpMethods.RESOURCES_READ, read))) {
        ObjectNode result = peer.request((String) call.get(0), (ObjectNode) call.get(1));

        assertThat(result.get("ttlMs").isIntegralNumber()).as(call.get(0).toString()).isTrue();
        assertThat(result.get("ttlMs").longValue()).as(call.get(0).toString()).isZero();
        assertThat(result.get("cacheScope").stringValue())
            .as(call.get(0).toString())
            .isEqualTo("private");
        assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
        assertThat(result.get("_meta").has(MetaKeys.SERVER_INFO)).isTrue();
      }
    }
  }

  @Test
  void aConfiguredCacheHintGoesOnEveryPageOfItsListAndOnlyThere() throws Exception {
    McpServer server =
        builder()
            .pageSize(1)
            .tool(Tool.builder("zeta").build(), call -> CallToolResult.text("z"))
            .cacheHint(CacheArea.TOOLS, Duration.ofMinutes(5), CacheScope.PUBLIC)
            .build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      ObjectNode first = peer.request(McpMethods.TOOLS_LIST, StatelessPeer.params());
      ObjectNode second =
          peer.request(
              McpMethods.TOOLS_LIST,
              StatelessPeer.params().put("cursor", first.get("nextCursor").stringValue()));
      ObjectNode prompts = peer.request(McpMethods.PROMPTS_LIST, StatelessPeer.params());

      for (ObjectNode page : List.of(first, second)) {
        assertThat(page.get("ttlMs").longValue()).isEqualTo(300_000);
        assertThat(page.get("cacheScope").stringValue()).isEqualTo("public");
      }
      assertThat(prompts.get("ttlMs").longValue()).isZero();
      assertThat(prompts.get("cacheScope").stringValue()).isEqualTo("private");
    }
  }

  @Test
  void anInputRequiredResultKeepsItsTypeAndGetsNoCacheHint() throws Exception {
    McpServer server =
        builder()
            .interceptor(chain ->
                chain.method().equals(McpMethods.RESOURCES_READ)
                    ? McpJson.object().put("resultType", "input_required").put("requestState", "s1")
                    : chain.proceed())
            .build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      ObjectNode result =
          peer.request(McpMethods.RESOURCES_READ, StatelessPeer.params().put("uri", "test://a"));

      assertThat(result.get("resultType").stringValue()).isEqualTo("input_required");
      assertThat(result.has("ttlMs")).isFalse();
      assertThat(result.has("cacheScope")).isFalse();
      assertThat(result.get("_meta").has(MetaKeys.SERVER_INFO)).isTrue();
    }
  }

  @Test
  void handshakeEraResultsAreNotDecorated() throws Exception {
    try (Peers.Peer peer = Peers.connect(builder().build())) {
      JsonNode list = peer.request(McpMethods.TOOLS_LIST, McpJson.object());
      JsonNode read =
          peer.request(McpMethods.RESOURCES_READ, McpJson.object().put("uri", "test://a"));

      for (JsonNode r : List.of(list, read)) {
        assertThat(r.has("resultType")).isFalse();
        assertThat(r.has("ttlMs")).isFalse();
        assertThat(r.has("cacheScope")).isFalse();
        assertThat(r.has("_meta")).isFalse();
      }
    }
  }

  @Test
  void malformedMetaIsInvalidParamsAndAnUnservedVersionIsUnsupportedWithTheVersionsServed()
      throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      ObjectNode noCaps = McpJson.object();
      noCaps.putObject("_meta").put(MetaKeys.PROTOCOL_VERSION, "2026-07-28");
      ObjectNode badLevel = StatelessPeer.params();
      ((ObjectNode) badLevel.get("_meta")).put(MetaKeys.LOG_LEVEL, "loud");
      ObjectNode future = StatelessPeer.params();
      ((ObjectNode) future.get("_meta")).put(MetaKeys.PROTOCOL_VERSION, "2099-01-01");
      ObjectNode legacyInMeta = StatelessPeer.params();
      ((ObjectNode) legacyInMeta.get("_meta")).put(MetaKeys.PROTOCOL_VERSION, "2025-11-25");

      McpException missing = peer.error(McpMethods.TOOLS_LIST, noCaps);
      McpException level = peer.error(McpMethods.TOOLS_LIST, badLevel);
      McpException unsupported = peer.error(McpMethods.SERVER_DISCOVER, future);
      McpException legacy = peer.error(McpMethods.SERVER_DISCOVER, legacyInMeta);

      assertThat(missing.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(missing.getMessage()).contains(MetaKeys.CLIENT_CAPABILITIES);
      assertThat(level.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(level.getMessage()).contains("loud");
      assertThat(unsupported.code()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
      assertThat(unsupported.data().get("supported").toString()).isEqualTo("[\"2026-07-28\"]");
      assertThat(unsupported.data().get("requested").stringValue()).isEqualTo("2099-01-01");
      assertThat(legacy.code()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
      assertThat(legacy.data().get("requested").stringValue()).isEqualTo("2025-11-25");
    }
  }

  @Test
  void handshakeOnlyMethodsAndUnknownMethodsAreMethodNotFoundInTheStatelessEra() throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      for (String method :
          List.of(
              McpMethods.INITIALIZE,
              McpMethods.PING,
              McpMethods.LOGGING_SET_LEVEL,
              McpMethods.RESOURCES_SUBSCRIBE,
              McpMethods.RESOURCES_UNSUBSCRIBE,
              McpMethods.INITIALIZED,
              "unknown/method")) {
        McpException e = peer.error(method, StatelessPeer.params().put("uri", "test://a"));

        assertThat(e.code()).as(method).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      }
      assertThat(peer.session.state()).isEqualTo(ServerSession.State.NEW);
    }
  }

  @Test
  void discoverListsTheVersionsServedAndOnlyCapabilitiesOfTheStatelessEra() throws Exception {
    ObjectNode settings = McpJson.object().put("level", 2);
    McpServer dual = builder().extension("com.example/audit", settings).build();
    McpServer modern = builder().eras(ServedEras.MODERN_ONLY).build();
    try (StatelessPeer a = StatelessPeer.connect(dual);
        StatelessPeer b = StatelessPeer.connect(modern)) {
      ObjectNode d = a.request(McpMethods.SERVER_DISCOVER, StatelessPeer.params());
      ObjectNode m = b.request(McpMethods.SERVER_DISCOVER, StatelessPeer.params());

      assertThat(d.get("supportedVersions").toString())
          .isEqualTo(
              "[\"2024-11-05\",\"2025-03-26\",\"2025-06-18\",\"2025-11-25\",\"2026-07-28\"]");
      assertThat(m.get("supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
      assertThat(d.get("instructions").stringValue()).isEqualTo("be brief");
      assertThat(d.get("capabilities").has("tasks")).isFalse();
      assertThat(d.get("capabilities").get("extensions").get("com.example/audit"))
          .isEqualTo(settings);
      assertThat(m.get("capabilities").has("extensions")).isFalse();
      assertThat(d.get("capabilities").get("tools").isObject()).isTrue();
      assertThat(d.get("_meta").get(MetaKeys.SERVER_INFO).get("version").stringValue())
          .isEqualTo("3.1");
    }
  }

  @Test
  void aModernOnlyServerRefusesInitializeNamingItsVersionsAndNeedsMetaOnEveryRequest()
      throws Exception {
    try (StatelessPeer peer =
        StatelessPeer.connect(builder().eras(ServedEras.MODERN_ONLY).build())) {
      ObjectNode init =
          McpJson.object()
              .put("protocolVersion", "2025-11-25")
              .set("capabilities", McpJson.object());
      init.set("clientInfo", McpJson.toTree(dev.herald.wire.Implementation.of("old", "1")));

      McpException refused = peer.error(McpMethods.INITIALIZE, init);
      McpException bare = peer.error(McpMethods.TOOLS_LIST, McpJson.object());

      assertThat(refused.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(refused.getMessage()).contains("2026-07-28");
      assertThat(refused.data().get("supported").toString()).isEqualTo("[\"2026-07-28\"]");
      assertThat(refused.data().get("requested").stringValue()).isEqualTo("2025-11-25");
      assertThat(bare.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(peer.session.state()).isEqualTo(ServerSession.State.NEW);
    }
  }

  @Test
  void onAStatelessOnlyConnectionARequestWithoutVersionIsInvalidParamsNotSendInitializeFirst()
      throws Exception {
    try (StatelessPeer peer = StatelessPeer.connectStateless(builder().build())) {
      ObjectNode noVersion = McpJson.object();
      noVersion.putObject("_meta").set(MetaKeys.CLIENT_CAPABILITIES, McpJson.object());
      ObjectNode init =
          McpJson.object()
              .put("protocolVersion", "2025-11-25")
              .set("capabilities", McpJson.object());

      for (McpException e :
          List.of(
              peer.error(McpMethods.SERVER_DISCOVER, McpJson.object()),
              peer.error(McpMethods.SERVER_DISCOVER, noVersion),
              peer.error(McpMethods.TOOLS_LIST, null),
              peer.error(McpMethods.INITIALIZE, init))) {
        assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(e.getMessage()).contains("_meta");
      }
      assertThat(
              peer.request(McpMethods.SERVER_DISCOVER, StatelessPeer.params()).has("capabilities"))
          .isTrue();
      assertThat(peer.session.state()).isEqualTo(ServerSession.State.NEW);
    }
  }

  @Test
  void aHandshakeOnlyServerRefusesStatelessRequestsNamingTheHandshakeVersions() throws Exception {
    McpServer server = builder().eras(ServedEras.HANDSHAKE_ONLY).build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      McpException discover = peer.error(McpMethods.SERVER_DISCOVER, StatelessPeer.params());
      McpException list = peer.error(McpMethods.TOOLS_LIST, StatelessPeer.params());

      for (McpException e : List.of(discover, list)) {
        assertThat(e.code()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
        assertThat(e.data().get("supported").toString())
            .isEqualTo("[\"2024-11-05\",\"2025-03-26\",\"2025-06-18\",\"2025-11-25\"]");
        assertThat(e.data().get("requested").stringValue()).isEqualTo("2026-07-28");
      }
    }
    try (Peers.Peer legacy = Peers.connect(server)) { // and the handshake still works
      assertThat(legacy.request(McpMethods.TOOLS_LIST, McpJson.object()).get("tools").size())
          .isEqualTo(2);
    }
  }

  @Test
  void aMissingResourceIsInvalidParamsStatelessAndResourceNotFoundInTheHandshakeEra()
      throws Exception {
    McpServer server = builder().build();
    try (StatelessPeer peer = StatelessPeer.connect(server);
        Peers.Peer legacy = Peers.connect(server)) {
      for (String uri : List.of("test://nothing", "test://gone/7")) {
        McpException modern =
            peer.error(McpMethods.RESOURCES_READ, StatelessPeer.params().put("uri", uri));
        McpException old =
            legacy.error(McpMethods.RESOURCES_READ, McpJson.object().put("uri", uri));

        assertThat(modern.code()).as(uri).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(modern.data().get("uri").stringValue()).isEqualTo(uri);
        assertThat(old.code()).as(uri).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
        assertThat(old.data().get("uri").stringValue()).isEqualTo(uri);
      }
    }
  }

  @Test
  void statelessRequestsSeeTheServersCatalogsNeverTheConnectionsOverlay() throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      peer.session.addTool(Tool.builder("private_tool").build(), call -> CallToolResult.text("x"));
      peer.session.prompts().add(Prompt.of("private_prompt", "x", List.of()), get -> null);

      ObjectNode tools = peer.request(McpMethods.TOOLS_LIST, StatelessPeer.params());
      ObjectNode prompts = peer.request(McpMethods.PROMPTS_LIST, StatelessPeer.params());
      ObjectNode call = StatelessPeer.params().put("name", "private_tool");
      McpException unknown = peer.error(McpMethods.TOOLS_CALL, call);

      assertThat(tools.get("tools").findValuesAsString("name")).containsExactly("chatty", "echo");
      assertThat(prompts.get("prompts").findValuesAsString("name")).containsExactly("p");
      assertThat(unknown.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    }
  }

  @Test
  void aHandlerLogsOnlyWhenTheRequestAskedAndOnlyOnThatRequestsStreamBeforeItsResponse()
      throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(builder().build())) {
      ObjectNode silent = StatelessPeer.params().put("name", "chatty");
      ObjectNode asked =
          StatelessPeer.params(ClientCapabilities.none(), LoggingLevel.INFO).put("name", "chatty");

      peer.request(McpMethods.TOOLS_CALL, silent);
      OutboundCall call = peer.send(McpMethods.TOOLS_CALL, asked);
      Peers.await(call.result());

      List<RecordingEnd.Sent> logs = peer.sentNotifications(McpMethods.MESSAGE);
      assertThat(logs).hasSize(1); // not the silent call's, not the debug line
      assertThat(logs.get(0).relatedTo()).isEqualTo(call.id());
      assertThat(
              ((JsonRpcMessage.Notification) logs.get(0).message())
                  .params()
                  .get("level")
                  .stringValue())
          .isEqualTo("warning");
      int logAt = peer.sent.indexOf(logs.get(0));
      int responseAt = -1;
      for (int i = 0; i < peer.sent.size(); i++) {
        if (peer.sent.get(i).message() instanceof JsonRpcMessage.Response r
            && r.id().equals(call.id())) {
          responseAt = i;
        }
      }
      assertThat(logAt).isLessThan(responseAt);
    }
  }

  @Test
  void progressOfAStatelessRequestGoesWithThatRequestBeforeItsResponse() throws Exception {
    McpServer server =
        builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("steps").build(),
                call -> {
                  call.context().progress().report(1.0, 2.0, "half");
                  call.context().progress().report(2.0, 2.0, "done");
                  return CallToolResult.text("ok");
                })
            .build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      ObjectNode params = StatelessPeer.params().put("name", "steps");
      ((ObjectNode) params.get("_meta")).put(MetaKeys.PROGRESS_TOKEN, "t1");

      OutboundCall call = peer.send(McpMethods.TOOLS_CALL, params);
      Peers.await(call.result());

      List<RecordingEnd.Sent> progress = peer.sentNotifications(McpMethods.PROGRESS);
      assertThat(progress).isNotEmpty();
      assertThat(progress).allMatch(p -> call.id().equals(p.relatedTo()));
      assertThat(
              ((JsonRpcMessage.Notification) progress.getLast().message())
                  .params()
                  .get("progressToken")
                  .stringValue())
          .isEqualTo("t1");
    }
  }

  @Test
  void sessionLevelLogsListChangesAndResourceUpdatesNeverReachASessionWithoutHandshake()
      throws Exception {
    McpServer server = builder().defaultLogLevel(LoggingLevel.DEBUG).build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      // a request that declares everything and asks for every log does not open anything
      ClientCapabilities all =
          new ClientCapabilities(
              null,
              new ClientCapabilities.Roots(true),
              McpJson.object(),
              McpJson.object(),
              McpJson.object(),
              McpJson.object());
      peer.request(McpMethods.TOOLS_LIST, StatelessPeer.params(all, LoggingLevel.DEBUG));

      server.log(LoggingLevel.EMERGENCY, null, "to everyone");
      peer.session.log(LoggingLevel.EMERGENCY, null, "to this session");
      server.addTool(Tool.builder("late").build(), call -> CallToolResult.text("late"));
      server.notifyResourceUpdated("test://a");

      Eventually.eventually(
          () -> events.gated(EventListener.GateReason.NOT_OPERATING) >= 3,
          "the session's gate refused the logs and the list change");
      assertThat(peer.sentNotifications(McpMethods.MESSAGE)).isEmpty();
      assertThat(peer.sentNotifications(McpMethods.TOOLS_LIST_CHANGED)).isEmpty();
      assertThat(peer.sentNotifications(McpMethods.RESOURCES_UPDATED)).isEmpty();
    }
  }

  @Test
  void theRequestContextShowsTheRequestsOwnMetadata() throws Exception {
    AtomicReference<RequestContext> seen = new AtomicReference<>();
    AtomicReference<List<Object>> values = new AtomicReference<>();
    McpServer server =
        builder()
            .tool(
                Tool.builder("whoami").build(),
                call -> {
                  RequestContext c = call.context();
                  seen.set(c);
                  values.set(
                      List.of(
                          c.clientInfo().map(i -> i.name()).orElse("?"),
                          c.clientCapabilities().supportsSampling(),
                          c.protocolVersion().map(ProtocolVersion::wire).orElse("?"),
                          c.era()));
                  return CallToolResult.text("ok");
                })
            .build();
    ClientCapabilities sampling =
        new ClientCapabilities(null, null, McpJson.object(), null, null, null);
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      peer.request(
          McpMethods.TOOLS_CALL, StatelessPeer.params(sampling, null).put("name", "whoami"));

      assertThat(values.get())
          .containsExactly("stateless-client", true, "2026-07-28", ProtocolVersion.Era.MODERN);
    }
    try (Peers.Peer legacy = Peers.connect(server)) {
      legacy.request(McpMethods.TOOLS_CALL, McpJson.object().put("name", "whoami"));

      assertThat(values.get())
          .containsExactly("test-client", false, "2025-11-25", ProtocolVersion.Era.LEGACY);
    }
  }

  @Test
  void aStatelessHandlerNeverWritesARequestToTheClient() throws Exception {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    McpServer server =
        builder()
            .tool(
                Tool.builder("ask").build(),
                call -> {
                  try {
                    call.context().elicit(ElicitParams.form("name?", McpJson.object()));
                  } catch (RuntimeException e) {
                    failure.set(e);
                    throw e;
                  }
                  return CallToolResult.text("asked");
                })
            .build();
    ClientCapabilities elicitation =
        new ClientCapabilities(null, null, null, McpJson.object(), null, null);
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      OutboundCall call =
          peer.send(
              McpMethods.TOOLS_CALL, StatelessPeer.params(elicitation, null).put("name", "ask"));
      try {
        Peers.await(call.result());
      } catch (McpException answered) {
        // whatever the answer, it is an answer: the request ended without writing a request
      }

      assertThat(peer.sentRequests()).isEmpty();
      assertThat(peer.clientWire.requests(McpMethods.ELICITATION_CREATE)).isEmpty();
    }
  }

  @Test
  void cancellingAStatelessRequestStopsItsHandlerAndNothingIsSentForIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    McpServer server =
        builder()
            .tool(
                Tool.builder("slow").build(),
                call -> {
                  started.countDown();
                  try {
                    new CountDownLatch(1).await();
                  } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                  }
                  return CallToolResult.text("never");
                })
            .build();
    try (StatelessPeer peer = StatelessPeer.connect(server)) {
      OutboundCall call =
          peer.send(McpMethods.TOOLS_CALL, StatelessPeer.params().put("name", "slow"));
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

      call.cancel("user aborted"); // notifications/cancelled on the pipe
      assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
      // a later request is answered, and nothing was ever sent for the cancelled one
      peer.request(McpMethods.TOOLS_LIST, StatelessPeer.params());

      Eventually.eventually(
          () -> events.requestsEnded(EventListener.Outcome.CANCELLED) == 1,
          "the cancelled request ended");
      assertThat(peer.sent)
          .noneMatch(
              s -> s.message() instanceof JsonRpcMessage.Response r && r.id().equals(call.id()));
    }
  }
}
