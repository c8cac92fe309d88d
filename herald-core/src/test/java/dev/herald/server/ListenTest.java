package dev.herald.server;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.internal.session.OutboundCall;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.Prompt;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code subscriptions/listen} (MCP 2026-07-28 basic/patterns/subscriptions) over in-memory
 * connections: the acknowledgement first with the honoured subset, the subscription id on every
 * notification and the listen request as its route, the filter, the debounce, concurrent listens,
 * cancellation, the server's graceful end, and the limits.
 */
class ListenTest {
  private static final String ACK = McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED;
  private static final String TOOLS = McpMethods.TOOLS_LIST_CHANGED;
  private static final String PROMPTS = McpMethods.PROMPTS_LIST_CHANGED;
  private static final String RESOURCES = McpMethods.RESOURCES_LIST_CHANGED;
  private static final String UPDATED = McpMethods.RESOURCES_UPDATED;

  private final ManualScheduler clock = new ManualScheduler();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private McpServer.Builder builder() {
    return McpServer.builder()
        .scheduler(clock)
        .ticker(clock)
        .tool(Tool.builder("base").build(), call -> CallToolResult.text("base"))
        .tool(
            Tool.builder("busy").build(),
            call -> {
              call.context().progress().cadence(Duration.ZERO).report(1, 2.0, "half");
              call.context().log(LoggingLevel.ERROR, "busy is logging");
              return CallToolResult.text("done");
            })
        .prompt(Prompt.of("p", "a prompt", List.of()), get -> null)
        .resource(
            Resource.of("test://r", "r", "text/plain"),
            ResourceHandler.text("text/plain", () -> "r"))
        .resource(
            Resource.of("test://other", "other", "text/plain"),
            ResourceHandler.text("text/plain", () -> "other"))
        .resource(
            Resource.of("test://secret", "secret", "text/plain"),
            ResourceHandler.text("text/plain", () -> "secret"))
        .resourceAccess((session, uri) -> !uri.equals("test://secret"));
  }

  private ModernPeer connect(McpServer server) {
    ModernPeer peer = ModernPeer.connect(server);
    open.add(peer);
    return peer;
  }

  /** Opens a listen and waits for its acknowledgement. */
  private static OutboundCall listening(ModernPeer peer, String filter) {
    OutboundCall listen = peer.listen(filter);
    eventually(() -> peer.taggedMethods(listen.id()).contains(ACK), "the listen is acknowledged");
    return listen;
  }

  private void debounce() {
    clock.advance(Duration.ofMillis(10));
  }

  private static void changeTools(McpServer server) {
    server.addTool(Tool.builder("t").build(), call -> CallToolResult.text("t"));
  }

  private static void changePrompts(McpServer server) {
    server.prompts().add(Prompt.of("q", "another prompt", List.of()), get -> null);
  }

  @Test
  void theAcknowledgementComesFirstAndNamesOnlyWhatTheServerHonours() {
    McpServer server = builder().toolsListChanged(false).build();
    ModernPeer peer = connect(server);

    OutboundCall listen =
        listening(
            peer,
            """
            {"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,
             "resourceSubscriptions":["test://r","test://secret","test://missing","test://r"],
             "taskIds":["t1"]}\
            """);

    List<JsonRpcMessage.Notification> tagged = peer.tagged(listen.id());
    assertThat(tagged).hasSize(1);
    assertThat(peer.notificationMethods()).containsExactly(ACK);
    ObjectNode params = tagged.get(0).params();
    assertThat(params.get("notifications"))
        .isEqualTo(
            Json.parse(
                """
                {"promptsListChanged":true,"resourcesListChanged":true,
                 "resourceSubscriptions":["test://r"]}\
                """));
    assertThat(MetaKeys.subscriptionId((ObjectNode) params.get("_meta"))).isEqualTo(listen.id());
    assertThat(server.activeListens()).isEqualTo(1);
    assertThat(listen.result()).isNotDone();
  }

  @Test
  void everyNotificationIsTaggedAndRidesTheListenRequestsStream() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    OutboundCall listen =
        listening(
            peer,
            """
            {"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,
             "resourceSubscriptions":["test://r"]}\
            """);

    changeTools(server);
    changePrompts(server);
    server.resources().remove("test://other");
    debounce();
    assertThat(server.notifyResourceUpdated("test://r")).isEqualTo(1);
    eventually(() -> peer.tagged(listen.id()).size() == 5, "five notifications on the listen");

    assertThat(peer.taggedMethods(listen.id()))
        .containsExactly(ACK, TOOLS, PROMPTS, RESOURCES, UPDATED);
    assertThat(peer.tagged(listen.id()).get(4).params().get("uri").stringValue())
        .isEqualTo("test://r");
    assertThat(peer.notificationMethods()).hasSize(5); // nothing untagged
    assertThat(peer.routedTo(listen.id()))
        .extracting(m -> ((JsonRpcMessage.Notification) m).method())
        .containsExactly(ACK, TOOLS, PROMPTS, RESOURCES, UPDATED);
  }

  @Test
  void nothingTheClientDidNotAskForIsSent() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    OutboundCall listen = listening(peer, "{\"promptsListChanged\":true}");

    changeTools(server);
    server.resources().remove("test://other");
    server.notifyResourceUpdated("test://r");
    server.log(LoggingLevel.EMERGENCY, null, "to every session that admits it");
    debounce();
    changePrompts(server);
    debounce();
    eventually(() -> peer.taggedMethods(listen.id()).contains(PROMPTS), "the prompt change");

    assertThat(peer.notificationMethods()).containsExactly(ACK, PROMPTS);
  }

  @Test
  void aBurstOfChangesGivesEachListenTheLeadingAndOneTrailingNotification() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    OutboundCall listen =
        listening(peer, "{\"toolsListChanged\":true,\"promptsListChanged\":true}");

    for (int i = 0; i < 5; i++) {
      server.addTool(Tool.builder("t" + i).build(), call -> CallToolResult.text("t"));
    }
    server.removeTool("t0");
    clock.advance(Duration.ofMillis(9));
    // the first change went out at once; the other five wait for the window to close
    eventually(() -> peer.taggedMethods(listen.id()).contains(TOOLS), "the leading change");
    assertThat(peer.taggedMethods(listen.id())).containsExactly(ACK, TOOLS);
    clock.advance(Duration.ofMillis(1));
    changePrompts(server); // a marker after the burst
    debounce();
    eventually(() -> peer.taggedMethods(listen.id()).contains(PROMPTS), "the marker");

    assertThat(peer.taggedMethods(listen.id())).containsExactly(ACK, TOOLS, TOOLS, PROMPTS);
  }

  @Test
  void concurrentListensOnOneConnectionAndAcrossConnectionsAreIndependent() throws Exception {
    McpServer server = builder().build();
    ModernPeer one = connect(server);
    ModernPeer two = connect(server);
    OutboundCall tools = listening(one, "{\"toolsListChanged\":true}");
    OutboundCall updates =
        listening(one, "{\"resourceSubscriptions\":[\"test://r\",\"test://other\"]}");
    OutboundCall both = listening(two, "{\"toolsListChanged\":true,\"promptsListChanged\":true}");
    assertThat(server.activeListens()).isEqualTo(3);

    changeTools(server);
    debounce();
    server.notifyResourceUpdated("test://other");
    eventually(() -> one.tagged(tools.id()).size() == 2, "tools listen told");
    eventually(() -> one.tagged(updates.id()).size() == 2, "updates listen told");
    eventually(() -> two.tagged(both.id()).size() == 2, "the other connection told");

    assertThat(one.taggedMethods(tools.id())).containsExactly(ACK, TOOLS);
    assertThat(one.taggedMethods(updates.id())).containsExactly(ACK, UPDATED);
    assertThat(two.taggedMethods(both.id())).containsExactly(ACK, TOOLS);

    tools.cancel("enough");
    eventually(() -> server.activeListens() == 2, "one listen released");
    changePrompts(server);
    changeTools(server);
    debounce();
    server.notifyResourceUpdated("test://r");
    eventually(() -> two.tagged(both.id()).size() == 4, "the other listens go on");
    eventually(() -> one.tagged(updates.id()).size() == 3, "the other listens go on");

    // the two areas flush on their own debouncers: after the first change, in either order
    assertThat(two.taggedMethods(both.id())).startsWith(ACK, TOOLS);
    assertThat(two.taggedMethods(both.id()).subList(2, 4))
        .containsExactlyInAnyOrder(TOOLS, PROMPTS);
    assertThat(one.taggedMethods(tools.id())).containsExactly(ACK, TOOLS);
  }

  @Test
  void cancellingAListenEndsItsHandlerReleasesItAndSendsNothingMore() throws Exception {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    OutboundCall listen = listening(peer, "{\"toolsListChanged\":true}");
    OutboundCall marker = listening(peer, "{\"toolsListChanged\":true}");
    assertThat(peer.session.engine().inFlightCount()).isEqualTo(2);

    assertThat(listen.cancel("done listening")).isTrue();
    eventually(() -> server.activeListens() == 1, "the listen is released");
    eventually(() -> peer.session.engine().inFlightCount() == 1, "its request is released");
    changeTools(server);
    debounce();
    eventually(() -> peer.tagged(marker.id()).size() == 2, "the marker listen is told");

    assertThat(peer.routedTo(listen.id()))
        .extracting(m -> ((JsonRpcMessage.Notification) m).method())
        .containsExactly(ACK); // no list change, and no response
  }

  @Test
  void closingTheConnectionReleasesItsListens() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    listening(peer, "{\"toolsListChanged\":true}");
    listening(peer, "{\"resourceSubscriptions\":[\"test://r\"]}");
    assertThat(server.activeListens()).isEqualTo(2);

    peer.close();

    eventually(() -> server.activeListens() == 0, "both listens released");
    changeTools(server);
    debounce();
    assertThat(server.notifyResourceUpdated("test://r")).isZero();
  }

  @Test
  void theServerEndsAListenWithACompleteResultNamingItsSubscription() throws Exception {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    OutboundCall keep = listening(peer, "{\"resourceSubscriptions\":[\"test://other\"]}");
    OutboundCall gone = listening(peer, "{\"resourceSubscriptions\":[\"test://r\"]}");

    server.notifyResourceUpdated("test://r");
    int ended = server.endListens(f -> f.resourceSubscriptionsOrEmpty().contains("test://r"));
    JsonNode result = Peers.await(gone.result());

    assertThat(ended).isEqualTo(1);
    assertThat(result)
        .isEqualTo(
            Json.parse(
                "{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":"
                    + McpJson.toTree(gone.id())
                    + ",\"io.modelcontextprotocol/serverInfo\":"
                    + McpJson.toTree(server.info())
                    + "}}"));
    assertThat(peer.taggedMethods(gone.id())).containsExactly(ACK, UPDATED); // pending went first
    eventually(() -> server.activeListens() == 1, "the ended listen is released");
    assertThat(keep.result()).isNotDone();

    assertThat(server.endListens()).isEqualTo(1);
    assertThat(Peers.await(keep.result()).get("resultType").stringValue()).isEqualTo("complete");
    eventually(() -> server.activeListens() == 0, "every listen released");
  }

  @Test
  void progressAndLogsNeverRideAListen() throws Exception {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    ObjectNode meta = ModernPeer.meta().put(MetaKeys.PROGRESS_TOKEN, "listen-token");
    meta.put(MetaKeys.LOG_LEVEL, "debug");
    OutboundCall listen = peer.listen("{\"toolsListChanged\":true}", meta);
    eventually(() -> peer.taggedMethods(listen.id()).contains(ACK), "acknowledged");

    ObjectNode callMeta = ModernPeer.meta().put(MetaKeys.PROGRESS_TOKEN, "call-token");
    callMeta.put(MetaKeys.LOG_LEVEL, "debug");
    ObjectNode call = McpJson.object().put("name", "busy");
    call.set("_meta", callMeta);
    peer.request(McpMethods.TOOLS_CALL, call);
    server.log(LoggingLevel.EMERGENCY, null, "server-wide");
    peer.session.log(LoggingLevel.EMERGENCY, null, "session-wide");
    changeTools(server);
    debounce();
    eventually(() -> peer.taggedMethods(listen.id()).contains(TOOLS), "the list change");

    assertThat(peer.routedTo(listen.id()))
        .extracting(m -> ((JsonRpcMessage.Notification) m).method())
        .containsExactly(ACK, TOOLS);
    assertThat(peer.routed.sent)
        .filteredOn(s ->
            s.message() instanceof JsonRpcMessage.Notification n
                && n.method().equals(McpMethods.PROGRESS))
        .allSatisfy(s -> assertThat(s.relatedTo()).isNotEqualTo(listen.id()));
  }

  @Test
  void aListenBeyondTheServersCapIsRefusedWithAClearError() throws Exception {
    McpServer server = builder().maxListens(2).build();
    ModernPeer one = connect(server);
    ModernPeer two = connect(server);
    OutboundCall first = listening(one, "{\"toolsListChanged\":true}");
    listening(two, "{\"toolsListChanged\":true}");

    OutboundCall third = one.listen("{\"toolsListChanged\":true}");

    assertThatThrownBy(() -> Peers.await(third.result()))
        .isInstanceOfSatisfying(
            McpException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCodes.LIMIT_EXCEEDED);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Too many subscriptions/listen streams: this server already holds 2 (the"
                          + " limit); end one before opening another");
            });
    assertThat(one.tagged(third.id())).isEmpty(); // nothing before the error
    first.cancel("make room");
    eventually(() -> server.activeListens() == 1, "room again");
    listening(one, "{\"toolsListChanged\":true}");
    assertThat(server.activeListens()).isEqualTo(2);
  }

  @Test
  void tooManyResourceSubscriptionsAreRefusedWithInvalidParams() {
    McpServer server = builder().maxResourceSubscriptionsPerListen(2).build();
    ModernPeer peer = connect(server);

    OutboundCall listen =
        peer.listen("{\"resourceSubscriptions\":[\"test://r\",\"test://other\",\"test://x\"]}");

    assertThatThrownBy(() -> Peers.await(listen.result()))
        .isInstanceOfSatisfying(
            McpException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Invalid params: notifications.resourceSubscriptions names 3 resources;"
                          + " one subscriptions/listen may hold at most 2");
            });
    assertThat(peer.notificationMethods()).isEmpty();
    assertThat(server.activeListens()).isZero();
  }

  @Test
  void aListenWithoutAFilterIsInvalidParams() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);
    ObjectNode params = McpJson.object();
    params.set("_meta", ModernPeer.meta());

    OutboundCall listen = peer.client.request("subscriptions/listen", params);

    assertThatThrownBy(() -> Peers.await(listen.result()))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
    assertThat(peer.notificationMethods()).isEmpty();
  }

  @Test
  void aResourceSubscriptionListThatIsNotStringsIsInvalidParams() {
    McpServer server = builder().build();
    ModernPeer peer = connect(server);

    OutboundCall nulls = peer.listen("{\"resourceSubscriptions\":[null]}");
    OutboundCall numbers = peer.listen("{\"resourceSubscriptions\":[1,2]}");
    OutboundCall flag = peer.listen("{\"toolsListChanged\":\"yes please\"}");

    for (OutboundCall bad : List.of(nulls, numbers, flag)) {
      assertThatThrownBy(() -> Peers.await(bad.result()))
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
    }
    assertThat(peer.notificationMethods()).isEmpty();
    assertThat(server.activeListens()).isZero();
  }

  @Test
  void aUriServedByATemplateCanBeSubscribedAndIsTold() {
    McpServer server =
        builder()
            .resourceTemplate(
                dev.herald.wire.ResourceTemplate.of("test://items/{id}", "item", "text/plain"),
                ResourceHandler.text("text/plain", () -> "item"))
            .build();
    ModernPeer peer = connect(server);
    OutboundCall listen =
        listening(peer, "{\"resourceSubscriptions\":[\"test://items/7\",\"test://nope/7\"]}");

    assertThat(peer.tagged(listen.id()).get(0).params().get("notifications"))
        .isEqualTo(Json.parse("{\"resourceSubscriptions\":[\"test://items/7\"]}"));
    assertThat(server.notifyResourceUpdated("test://items/8")).isZero();
    assertThat(server.notifyResourceUpdated("test://items/7")).isEqualTo(1);
    eventually(() -> peer.tagged(listen.id()).size() == 2, "the update");
    assertThat(peer.taggedMethods(listen.id())).containsExactly(ACK, UPDATED);
  }

  @Test
  void aHandshakeEraSessionCannotListen() throws Exception {
    McpServer server = builder().build();
    try (Peers.Peer peer = Peers.connect(server)) {
      ObjectNode params = McpJson.object();
      params.set("notifications", Json.parse("{\"toolsListChanged\":true}"));

      McpException e = peer.error(McpMethods.SUBSCRIPTIONS_LISTEN, params);

      assertThat(e.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(server.activeListens()).isZero();
    }
  }

  @Test
  void aSlowListenerBlocksNeitherTheFanOutNorOtherListensAndIsCoalesced() throws Exception {
    McpServer server = builder().build();
    ModernPeer slow = connect(server);
    ModernPeer fast = connect(server);
    OutboundCall stuck =
        listening(slow, "{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"test://r\"]}");
    OutboundCall quick = listening(fast, "{\"toolsListChanged\":true}");
    slow.routed.hold(); // the slow client stops reading: its writes block

    for (int burst = 0; burst < 3; burst++) {
      changeTools(server);
      debounce(); // runs the fan-out on this thread: it must not block
      server.notifyResourceUpdated("test://r");
      final int expected = burst + 2;
      eventually(() -> fast.tagged(quick.id()).size() == expected, "the fast listen is told");
    }
    slow.routed.release();
    changePrompts(server); // the slow listen did not ask for prompts: no marker there
    server.endListens(f -> f.resourceSubscriptionsOrEmpty().contains("test://r"));
    Peers.await(stuck.result());

    // the first write was blocked; the later bursts coalesced behind it
    List<String> got = slow.taggedMethods(stuck.id());
    assertThat(got.stream().filter(TOOLS::equals).count()).isBetween(1L, 2L);
    assertThat(got.stream().filter(UPDATED::equals).count()).isBetween(1L, 2L);
    assertThat(got).first().isEqualTo(ACK);
  }
}
