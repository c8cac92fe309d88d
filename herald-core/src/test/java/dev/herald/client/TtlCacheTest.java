package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.Eventually;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.SubscriptionFilter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The client's caches of discover and the catalogs (MCP 2026-07-28 server/utilities/caching): an
 * entry is fresh while {@code now < received + ttlMs}, an absent or negative {@code ttlMs} counts as
 * 0, each page has its own lifetime, a {@code private} page is never served to another credential
 * identity, and the matching notification makes a fresh entry stale.
 */
@Timeout(30)
class TtlCacheTest {
  private final AtomicLong now = new AtomicLong();

  private McpClient.Builder client() {
    return McpClient.builder().ticker(now::get);
  }

  private void advanceMillis(long ms) {
    now.addAndGet(ms * 1_000_000L);
  }

  private static String tools(String name, String ttl, String scope, String cursor) {
    return "{\"resultType\":\"complete\",\"tools\":[{\"name\":\""
        + name
        + "\",\"inputSchema\":{\"type\":\"object\"}}]"
        + (ttl == null ? "" : ",\"ttlMs\":" + ttl)
        + (scope == null ? "" : ",\"cacheScope\":\"" + scope + "\"")
        + (cursor == null ? "" : ",\"nextCursor\":\"" + cursor + "\"")
        + "}";
  }

  @Test
  void aListIsReusedWhileFreshAndFetchedAgainOnceItsTtlRanOut() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, tools("a", "1000", "public", null)));
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.tools();
      advanceMillis(999);
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).hasSize(1);
      assertThat(c.stale(McpClient.Area.TOOLS)).isFalse();
      advanceMillis(1);
      assertThat(c.stale(McpClient.Area.TOOLS)).isTrue();
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).hasSize(2);
      assertThat(c.fetchCount(McpClient.Area.TOOLS)).isEqualTo(2);
    }
  }

  @Test
  void anAbsentZeroOrNegativeTtlMeansEveryUseFetches() throws Exception {
    for (String ttl : new String[] {null, "0", "-5"}) {
      ModernPeer peer = new ModernPeer();
      peer.on(McpMethods.TOOLS_LIST, r -> result(r, tools("a", ttl, "public", null)));
      try (McpClient c = client().connect(peer.clientEnd())) {
        c.tools();
        c.tools();
        assertThat(peer.requests(McpMethods.TOOLS_LIST)).as("ttlMs %s", ttl).hasSize(2);
      }
    }
  }

  @Test
  void eachPageKeepsItsOwnLifetime() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.TOOLS_LIST,
        r -> {
          JsonNode cursor = r.params() == null ? null : r.params().get("cursor");
          return cursor == null
              ? result(r, tools("a", "60000", "public", "p2"))
              : result(r, tools("b", "10", "public", null));
        });
    try (McpClient c = client().connect(peer.clientEnd())) {
      assertThat(c.tools()).extracting(t -> t.name()).containsExactly("a", "b");
      advanceMillis(20);
      assertThat(c.tools()).extracting(t -> t.name()).containsExactly("a", "b");
      assertThat(peer.requests(McpMethods.TOOLS_LIST))
          .as("the first page was still fresh: only the second was fetched again")
          .hasSize(3);
      assertThat(peer.requests(McpMethods.TOOLS_LIST).get(2).params().get("cursor").stringValue())
          .isEqualTo("p2");
      assertThat(c.pageFetchCount(McpClient.Area.TOOLS)).isEqualTo(3);
    }
  }

  @Test
  void aPrivatePageIsNeverServedToAnotherIdentityAndAPublicOneIsShared() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, tools("mine", "60000", "private", null)));
    peer.on(
        McpMethods.PROMPTS_LIST,
        r ->
            result(
                r,
                "{\"resultType\":\"complete\",\"prompts\":[],\"ttlMs\":60000,\"cacheScope\":\"public\"}"));
    AtomicReference<String> who = new AtomicReference<>("alice");
    try (McpClient c = client().cacheIdentity(who::get).connect(peer.clientEnd())) {
      c.tools();
      c.prompts();
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).hasSize(1);
      who.set("bob");
      c.tools();
      c.prompts();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).as("bob gets his own").hasSize(2);
      assertThat(peer.requests(McpMethods.PROMPTS_LIST)).as("public: shared").hasSize(1);
      who.set("alice");
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).as("alice's page is still fresh").hasSize(2);
    }
  }

  @Test
  void withoutAnIdentityNoPrivatePageIsKept() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, tools("mine", "60000", "private", null)));
    try (McpClient c = client().cacheIdentity(() -> null).connect(peer.clientEnd())) {
      c.tools();
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).hasSize(2);
    }
  }

  @Test
  void aListChangeOnAListenMakesAFreshListStale() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_LIST, r -> result(r, tools("a", "60000", "public", null)));
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"toolsListChanged\":true}}");
          return null; // held open
        });
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.tools();
      Subscription s =
          c.listen(
              new SubscriptionFilter(true, null, null, null, null), new SubscriptionListener() {});
      s.honoured().get();
      JsonRpcMessage.Request listen = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0);
      peer.notifyListen(listen.id(), McpMethods.TOOLS_LIST_CHANGED, null);
      Eventually.eventually(() -> c.stale(McpClient.Area.TOOLS), "the list went stale");
      c.tools();
      assertThat(peer.requests(McpMethods.TOOLS_LIST)).hasSize(2);
    }
  }

  @Test
  void discoverIsReusedForItsTtlAndAskedAgainAfter() throws Exception {
    ModernPeer peer = new ModernPeer(); // discover: ttlMs 60000
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.discover();
      advanceMillis(59_999);
      c.discover();
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).hasSize(1);
      advanceMillis(1);
      assertThat(c.discover().serverInfo().name()).isEqualTo("peer");
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).hasSize(2);
    }
  }

  @Test
  void aReadIsReusedForItsTtlUntilTheResourceIsUpdated() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.RESOURCES_READ,
        r ->
            result(
                r,
                "{\"resultType\":\"complete\",\"contents\":[{\"uri\":\"test://r\",\"text\":\"x\"}],"
                    + "\"ttlMs\":60000,\"cacheScope\":\"public\"}"));
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"resourceSubscriptions\":[\"test://r\"]}}");
          return null;
        });
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.readResource("test://r");
      c.readResource("test://r");
      assertThat(peer.requests(McpMethods.RESOURCES_READ)).hasSize(1);
      Subscription s =
          c.listen(
              new SubscriptionFilter(null, null, null, java.util.List.of("test://r"), null),
              new SubscriptionListener() {});
      s.honoured().get();
      JsonRpcMessage.Request listen = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).get(0);
      peer.notifyListen(listen.id(), McpMethods.RESOURCES_UPDATED, "{\"uri\":\"test://r\"}");
      c.tools(); // a round trip after the update: it has been read
      c.readResource("test://r");
      assertThat(peer.requests(McpMethods.RESOURCES_READ)).hasSize(2);
    }
  }

  @Test
  void aReadReachedThroughInputRoundsIsNeverReused() throws Exception {
    ModernPeer peer = new ModernPeer();
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    peer.on(
        McpMethods.RESOURCES_READ,
        r ->
            result(
                r,
                n.getAndIncrement() % 2 == 0
                    ? "{\"resultType\":\"input_required\",\"requestState\":\"s\"}"
                    : "{\"resultType\":\"complete\",\"contents\":[],\"ttlMs\":60000,"
                        + "\"cacheScope\":\"public\"}"));
    try (McpClient c = client().connect(peer.clientEnd())) {
      c.readResource("test://r");
      c.readResource("test://r");
      assertThat(peer.requests(McpMethods.RESOURCES_READ)).hasSize(4);
    }
  }
}
