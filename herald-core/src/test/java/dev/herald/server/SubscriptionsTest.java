package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.UnsubscribeParams;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubscriptionsTest {

  static McpServer server(int cap) {
    return McpServer.builder()
        .eventListenerFactory(Counts.PER_SESSION)
        .resource(
            Resource.of("demo://counter", "counter", "text/plain"),
            ResourceHandler.text("text/plain", () -> "0"))
        .resource(
            Resource.of("demo://other", "other", "text/plain"),
            ResourceHandler.text("text/plain", () -> "x"))
        .resource(
            Resource.of("demo://private", "private", "text/plain"),
            ResourceHandler.text("text/plain", () -> "p"))
        .resourceTemplate(
            ResourceTemplate.of("demo://item/{n}", "item", "text/plain"),
            read ->
                ReadResourceResult.of(
                    ResourceContents.text(read.uri(), "text/plain", read.variable("n"))))
        .resourceAccess((session, uri) -> !uri.equals("demo://private"))
        .maxSubscriptionsPerSession(cap)
        .build();
  }

  static void subscribe(Peers.Peer peer, String uri) throws Exception {
    assertThat(
            peer.request(McpMethods.RESOURCES_SUBSCRIBE, McpJson.toObject(SubscribeParams.of(uri))))
        .isEqualTo(McpJson.object());
  }

  static List<String> updatedUris(Peers.Peer peer) throws InterruptedException {
    peer.client().ping(); // everything the server sent before this answer has arrived
    return peer.wire().notifications(McpMethods.RESOURCES_UPDATED).stream()
        .map(JsonRpcMessage.Notification::params)
        .map(p -> p.get("uri").stringValue())
        .toList();
  }

  @Test
  void resourceUpdatesReachExactlyTheSubscribersOfThatUri() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer a = Peers.connect(server);
        Peers.Peer b = Peers.connect(server);
        Peers.Peer c = Peers.connect(server)) {
      subscribe(a, "demo://counter");
      subscribe(b, "demo://counter");
      subscribe(b, "demo://counter"); // twice is once
      subscribe(c, "demo://other");

      assertThat(server.notifyResourceUpdated("demo://counter")).isEqualTo(2);
      assertThat(server.notifyResourceUpdated("demo://nobody")).isZero();

      assertThat(updatedUris(a)).containsExactly("demo://counter");
      assertThat(updatedUris(b)).containsExactly("demo://counter");
      assertThat(updatedUris(c)).isEmpty();
      assertThat(b.session().subscriptions()).containsExactly("demo://counter");
    }
  }

  @Test
  void aTemplateMatchedUriCanBeSubscribed() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer a = Peers.connect(server)) {
      subscribe(a, "demo://item/7");
      server.notifyResourceUpdated("demo://item/7");
      server.notifyResourceUpdated("demo://item/8");

      assertThat(updatedUris(a)).containsExactly("demo://item/7");
    }
  }

  @Test
  void unsubscribeStopsUpdates() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer a = Peers.connect(server)) {
      subscribe(a, "demo://counter");
      server.notifyResourceUpdated("demo://counter");
      assertThat(
              a.request(
                  McpMethods.RESOURCES_UNSUBSCRIBE,
                  McpJson.toObject(UnsubscribeParams.of("demo://counter"))))
          .isEqualTo(McpJson.object());
      assertThat(
              a.request(
                  McpMethods.RESOURCES_UNSUBSCRIBE,
                  McpJson.toObject(UnsubscribeParams.of("demo://counter"))))
          .isEqualTo(McpJson.object()); // unsubscribing again is harmless
      server.notifyResourceUpdated("demo://counter");

      assertThat(updatedUris(a)).containsExactly("demo://counter");
      assertThat(a.session().subscriptions()).isEmpty();
    }
  }

  @Test
  void subscriptionsDieWithTheSession() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer stays = Peers.connect(server)) {
      Peers.Peer leaves = Peers.connect(server);
      subscribe(leaves, "demo://counter");
      subscribe(stays, "demo://counter");

      leaves.close();
      Peers.awaitTrue(() ->
          leaves.session().subscriptions().isEmpty()
              && !server.sessions().contains(leaves.session()));

      assertThat(server.notifyResourceUpdated("demo://counter")).isEqualTo(1);
      assertThat(updatedUris(stays)).containsExactly("demo://counter");
    }
  }

  @Test
  void subscriptionsOverTheCapAreRefusedAndTheSessionStaysUsable() throws Exception {
    McpServer server = server(2);
    try (Peers.Peer a = Peers.connect(server)) {
      subscribe(a, "demo://counter");
      subscribe(a, "demo://other");
      subscribe(a, "demo://other"); // already held: no new slot needed

      McpException e =
          a.error(
              McpMethods.RESOURCES_SUBSCRIBE,
              McpJson.toObject(SubscribeParams.of("demo://item/1")));

      assertThat(e.code()).isEqualTo(ErrorCodes.LIMIT_EXCEEDED);
      assertThat(e.getMessage()).contains("Too many subscriptions").contains("the limit is 2");
      assertThat(a.session().subscriptions())
          .containsExactlyInAnyOrder("demo://counter", "demo://other");
      a.request(
          McpMethods.RESOURCES_UNSUBSCRIBE, McpJson.toObject(UnsubscribeParams.of("demo://other")));
      subscribe(a, "demo://item/1");
      server.notifyResourceUpdated("demo://item/1");
      assertThat(updatedUris(a)).containsExactly("demo://item/1");
    }
  }

  @Test
  void theAccessHookRefusesSubscriptionsLikeUnknownUrisAndTheSessionStaysUsable() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer a = Peers.connect(server)) {
      McpException refused =
          a.error(
              McpMethods.RESOURCES_SUBSCRIBE,
              McpJson.toObject(SubscribeParams.of("demo://private")));
      McpException unknown =
          a.error(
              McpMethods.RESOURCES_SUBSCRIBE,
              McpJson.toObject(SubscribeParams.of("demo://missing")));

      assertThat(refused.code()).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      assertThat(refused.getMessage()).isEqualTo(unknown.getMessage());
      assertThat(server.notifyResourceUpdated("demo://private")).isZero();
      subscribe(a, "demo://counter");
      assertThat(a.session().subscriptions()).containsExactly("demo://counter");
    }
  }

  @Test
  void resourceUpdatedGoesThroughTheSessionsGate() throws Exception {
    McpServer server = server(100);
    try (Peers.Peer a = Peers.connect(server)) {
      long before = Counts.of(a.session()).gated();

      assertThat(a.session().resourceUpdated("demo://counter")).isFalse(); // not subscribed
      assertThat(Counts.of(a.session()).gated()).isEqualTo(before + 1);
      subscribe(a, "demo://counter");
      assertThat(a.session().resourceUpdated("demo://counter")).isTrue();
      assertThat(updatedUris(a)).containsExactly("demo://counter");
    }
  }
}
