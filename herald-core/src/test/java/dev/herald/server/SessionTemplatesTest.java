package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resource templates one session sees on top of the server's, over a real session. */
class SessionTemplatesTest {

  private static List<String> templateNames(Peers.Peer peer) throws Exception {
    return McpJson.resultFromTree(
            peer.request(McpMethods.RESOURCES_TEMPLATES_LIST, McpJson.object()),
            ListResourceTemplatesResult.class)
        .resourceTemplates()
        .stream()
        .map(ResourceTemplate::name)
        .toList();
  }

  private static String read(Peers.Peer peer, String uri) throws Exception {
    ReadResourceResult r =
        McpJson.resultFromTree(
            peer.request(McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of(uri))),
            ReadResourceResult.class);
    return ((ResourceContents.Text) r.contents().get(0)).text();
  }

  private static ResourceHandler says(String who) {
    return read ->
        ReadResourceResult.of(
            List.of(
                ResourceContents.text(
                    read.uri(), "text/plain", who + " " + read.variables().get("id"))));
  }

  @Test
  void aSessionsOwnTemplateTakesTheServersPlaceForThatSessionUntilItIsRemoved() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server =
        McpServer.builder()
            .scheduler(clock)
            .resourceTemplate(
                ResourceTemplate.of("test://a/{id}", "server-a", "text/plain"), says("server"))
            .resourceTemplate(
                ResourceTemplate.of("test://b/{id}", "server-b", "text/plain"), says("server"))
            .build();
    try (Peers.Peer a = Peers.connect(server);
        Peers.Peer b = Peers.connect(server)) {
      a.session()
          .resources()
          .addTemplate(ResourceTemplate.of("test://own/{id}", "own", "text/plain"), says("own"));
      a.session()
          .resources()
          .addTemplate(
              ResourceTemplate.of("test://a/{id}", "session-a", "text/plain"), says("session"));
      clock.advance(Duration.ofMillis(10));
      a.client().ping();
      b.client().ping();

      assertThat(templateNames(a)).containsExactly("session-a", "server-b", "own");
      assertThat(templateNames(b)).containsExactly("server-a", "server-b");
      assertThat(read(a, "test://a/1")).isEqualTo("session 1");
      assertThat(read(b, "test://a/1")).isEqualTo("server 1");
      assertThat(read(a, "test://own/2")).isEqualTo("own 2");
      assertThat(
              b.error(
                      McpMethods.RESOURCES_READ,
                      McpJson.toObject(ReadResourceParams.of("test://own/2")))
                  .code())
          .isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      // Two changes in one window: the first goes out at once, the second when the window closes.
      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(2);
      assertThat(b.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).isEmpty();

      assertThat(a.session().resources().removeTemplate("test://a/{id}")).isTrue();
      server.resources().removeTemplate("test://b/{id}");
      clock.advance(Duration.ofMillis(10));
      a.client().ping();
      b.client().ping();

      assertThat(templateNames(a)).containsExactly("server-a", "own");
      assertThat(templateNames(b)).containsExactly("server-a");
      assertThat(read(a, "test://a/3")).isEqualTo("server 3");
      // Both removals fell in the window the trailing run opened: one more notification each.
      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(3);
      assertThat(b.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(1);
    }
  }
}
