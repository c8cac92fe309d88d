package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.testing.Eventually;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.SubscriptionFilter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code subscriptions/listen} on the client (MCP 2026-07-28 basic/patterns/subscriptions): the
 * filter goes out, the acknowledged subset comes back to the caller, notifications are
 * demultiplexed by {@code subscriptionId} (and what was not asked for is dropped), the listen is
 * re-sent after the server ends it, closing the subscription cancels it; in the handshake era the
 * same API maps onto the session.
 */
@Timeout(30)
class ListenTest {
  private static final SubscriptionFilter TOOLS_AND_CONFIG =
      new SubscriptionFilter(true, true, null, List.of("file:///config"), null);

  /** Records what a subscription's listener is told, in order. */
  static final class Recorder implements SubscriptionListener {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void listChanged(McpClient.Area area) {
      seen.add("changed " + area);
    }

    @Override
    public void resourceUpdated(ResourceUpdatedParams update) {
      seen.add("updated " + update.uri());
    }

    @Override
    public void acknowledged(SubscriptionFilter requested, SubscriptionFilter honoured) {
      seen.add(
          "ack tools="
              + honoured.wantsToolsListChanged()
              + " prompts="
              + honoured.wantsPromptsListChanged());
    }

    @Override
    public void ended(@Nullable Throwable cause) {
      seen.add("ended " + cause);
    }
  }

  /** A peer whose listens are acknowledged with tools list changes only, and held open. */
  private static ModernPeer peer() {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"file:///config\"]}}");
          return null;
        });
    return peer;
  }

  @Test
  void theFilterGoesOutAndTheHonouredSubsetComesBackForTheCallerToCompare() throws Exception {
    ModernPeer peer = peer();
    Recorder rec = new Recorder();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd());
        Subscription s = c.listen(TOOLS_AND_CONFIG, rec)) {
      SubscriptionFilter honoured = s.honoured().get(5, TimeUnit.SECONDS);
      assertThat(honoured.wantsToolsListChanged()).isTrue();
      assertThat(honoured.wantsPromptsListChanged()).as("the server dropped prompts").isFalse();
      assertThat(s.requested()).isEqualTo(TOOLS_AND_CONFIG);

      JsonRpcMessage.Request listen = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0);
      assertThat(listen.params().get("notifications").get("toolsListChanged").booleanValue())
          .isTrue();
      assertThat(
              listen
                  .params()
                  .get("notifications")
                  .get("resourceSubscriptions")
                  .get(0)
                  .stringValue())
          .isEqualTo("file:///config");
      assertThat(
              listen
                  .params()
                  .get("_meta")
                  .get("io.modelcontextprotocol/protocolVersion")
                  .stringValue())
          .isEqualTo("2026-07-28");
      Eventually.eventually(() -> rec.seen.contains("ack tools=true prompts=false"), "ack told");
    }
  }

  @Test
  void notificationsAreDemultiplexedBySubscriptionIdAndWhatWasNotAskedForIsDropped()
      throws Exception {
    ModernPeer peer = peer();
    Recorder one = new Recorder();
    Recorder two = new Recorder();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      Subscription a = c.listen(TOOLS_AND_CONFIG, one);
      Subscription b = c.listen(new SubscriptionFilter(null, null, true, null, null), two);
      a.honoured().get(5, TimeUnit.SECONDS);
      b.honoured().get(5, TimeUnit.SECONDS);
      RequestId idA = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0).id();
      RequestId idB = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(1).id();

      peer.notifyListen(idA, McpMethods.TOOLS_LIST_CHANGED, null);
      peer.notifyListen(idB, McpMethods.RESOURCES_LIST_CHANGED, null);
      peer.notifyListen(idA, McpMethods.RESOURCES_UPDATED, "{\"uri\":\"file:///config\"}");
      peer.notifyListen(
          idA, McpMethods.RESOURCES_UPDATED, "{\"uri\":\"file:///other\"}"); // not asked
      peer.notifyListen(idB, McpMethods.TOOLS_LIST_CHANGED, null); // not asked by b
      peer.notifyListen(RequestId.of(999), McpMethods.TOOLS_LIST_CHANGED, null); // no such listen
      peer.send(new JsonRpcMessage.Notification(McpMethods.PROMPTS_LIST_CHANGED, null)); // untagged
      c.tools(); // a round trip after the notifications

      Eventually.eventually(() -> one.seen.size() == 3 && two.seen.size() == 2, "delivered");
      c.tools();
      assertThat(one.seen)
          .containsExactly(
              "ack tools=true prompts=false", "changed TOOLS", "updated file:///config");
      assertThat(two.seen).containsExactly("ack tools=true prompts=false", "changed RESOURCES");
      a.close();
      b.close();
    }
  }

  @Test
  void aListenTheServerEndsIsSentAgainWithANewId() throws Exception {
    ModernPeer peer = new ModernPeer();
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"toolsListChanged\":true}}");
          if (n.getAndIncrement() == 0) {
            // the first one ends gracefully at once: a complete result naming it
            return result(
                r,
                "{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":"
                    + McpJson.toTree(r.id())
                    + "}}");
          }
          if (n.get() == 2) {
            // the second one is torn down with notifications/cancelled (stdio)
            peer.send(
                new JsonRpcMessage.Notification(
                    McpMethods.CANCELLED,
                    McpJson.toObject(CancelledNotificationParams.of(r.id(), "server restarting"))));
          }
          return null;
        });
    Recorder rec = new Recorder();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd());
        Subscription s = c.listen(new SubscriptionFilter(true, null, null, null, null), rec)) {
      Eventually.eventually(
          () -> peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).size() == 3, "listened three times");
      List<RequestId> ids =
          peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).stream()
              .map(JsonRpcMessage.Request::id)
              .toList();
      assertThat(ids).doesNotHaveDuplicates();
      RequestId current = ids.get(2);
      Eventually.eventually(() -> c.openListens() == 1, "one listen open");
      peer.notifyListen(current, McpMethods.TOOLS_LIST_CHANGED, null);
      Eventually.eventually(() -> rec.seen.contains("changed TOOLS"), "the new listen delivers");
      assertThat(rec.seen).noneMatch(e -> e.startsWith("ended"));
    }
  }

  @Test
  void closingTheSubscriptionCancelsItsListenAndItIsNotSentAgain() throws Exception {
    ModernPeer peer = peer();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      Subscription s = c.listen(TOOLS_AND_CONFIG, new Recorder());
      s.honoured().get(5, TimeUnit.SECONDS);
      RequestId id = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0).id();
      s.close();
      Eventually.eventually(
          () -> !peer.notifications(McpMethods.CANCELLED).isEmpty(), "the listen was cancelled");
      CancelledNotificationParams p =
          McpJson.fromTree(
              peer.notifications(McpMethods.CANCELLED).get(0).params(),
              CancelledNotificationParams.class);
      assertThat(p.requestId()).isEqualTo(id);
      c.tools();
      assertThat(peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN)).hasSize(1);
      assertThat(c.openListens()).isZero();
    }
  }

  @Test
  void aListenTheServerRefusesEndsForGood() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> ModernPeer.error(r, ErrorCodes.METHOD_NOT_FOUND, "Method not found", null));
    Recorder rec = new Recorder();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      Subscription s = c.listen(TOOLS_AND_CONFIG, rec);
      assertThatThrownBy(() -> s.honoured().get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class);
      Eventually.eventually(() -> rec.seen.stream().anyMatch(e -> e.startsWith("ended")), "told");
      c.tools();
      assertThat(peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN)).hasSize(1);
    }
  }

  @Test
  void inTheHandshakeEraListenMapsOntoTheSessionAndAcknowledgesWhatTheServerDeclared()
      throws Exception {
    ModernPeer peer =
        ModernPeer.legacy(r -> ModernPeer.error(r, ErrorCodes.METHOD_NOT_FOUND, "nope", null));
    peer.on(McpMethods.RESOURCES_SUBSCRIBE, r -> result(r, "{}"));
    peer.on(McpMethods.RESOURCES_UNSUBSCRIBE, r -> result(r, "{}"));
    Recorder rec = new Recorder();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      Subscription s = c.listen(TOOLS_AND_CONFIG, rec);
      SubscriptionFilter honoured = s.honoured().get(5, TimeUnit.SECONDS);
      assertThat(honoured.wantsToolsListChanged()).isTrue();
      assertThat(honoured.wantsPromptsListChanged()).as("the server declared no prompts").isFalse();
      assertThat(honoured.resourceSubscriptionsOrEmpty()).containsExactly("file:///config");
      assertThat(peer.requests(McpMethods.RESOURCES_SUBSCRIBE)).hasSize(1);
      assertThat(peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN)).isEmpty();

      peer.send(new JsonRpcMessage.Notification(McpMethods.TOOLS_LIST_CHANGED, null));
      peer.send(
          new JsonRpcMessage.Notification(
              McpMethods.RESOURCES_UPDATED, ModernPeer.json("{\"uri\":\"file:///config\"}")));
      Eventually.eventually(() -> rec.seen.size() == 3, "delivered");
      assertThat(rec.seen)
          .containsExactly(
              "ack tools=true prompts=false", "changed TOOLS", "updated file:///config");
      s.close();
      assertThat(peer.requests(McpMethods.RESOURCES_UNSUBSCRIBE)).hasSize(1);
    }
  }

  @Test
  void builderListChangeListenersGetAListenOfTheirOwnOnA2026Server() throws Exception {
    ModernPeer peer = peer();
    List<String> told = new CopyOnWriteArrayList<>();
    try (McpClient c =
        McpClient.builder()
            .onListChanged(McpClient.Area.TOOLS, () -> told.add("tools"))
            .connect(peer.clientEnd())) {
      Eventually.eventually(
          () -> !peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).isEmpty(), "the listen arrived");
      JsonRpcMessage.Request listen = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0);
      assertThat(listen.params().get("notifications").propertyNames())
          .containsExactly("toolsListChanged");
      c.tools();
      peer.notifyListen(listen.id(), McpMethods.TOOLS_LIST_CHANGED, null);
      Eventually.eventually(() -> told.equals(List.of("tools")), "the builder's listener was told");
      assertThat(c.stale(McpClient.Area.TOOLS)).isTrue();
    }
  }

  @Test
  void aListenWhoseStreamBrokeIsSentAgain() throws Exception {
    ModernPeer peer = new ModernPeer();
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          if (n.getAndIncrement() == 0) {
            // what the HTTP transport reports when a response stream ends without a response
            return ModernPeer.error(
                r,
                ErrorCodes.INTERNAL_ERROR,
                "reading the response from http://x/mcp failed",
                null);
          }
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"toolsListChanged\":true}}");
          return null;
        });
    try (McpClient c = McpClient.builder().connect(peer.clientEnd());
        Subscription s =
            c.listen(new SubscriptionFilter(true, null, null, null, null), new Recorder())) {
      assertThat(s.honoured().get(5, TimeUnit.SECONDS).wantsToolsListChanged()).isTrue();
      assertThat(peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN)).hasSize(2);
    }
  }
}
