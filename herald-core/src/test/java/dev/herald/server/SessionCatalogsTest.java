package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.ListPromptsResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resources and prompts a single session sees on top of the server's catalogs. */
class SessionCatalogsTest {

  private static McpServer server(ManualScheduler clock) {
    return McpServer.builder()
        .scheduler(clock)
        .resource(
            Resource.of("test://shared", "shared", "text/plain"),
            ResourceHandler.text("text/plain", () -> "server's"))
        .prompt(
            Prompt.of("shared_prompt", "A prompt every session sees", List.of()),
            get -> GetPromptResult.of(null, List.of(PromptMessage.user("from the server"))))
        .build();
  }

  private static List<String> resourceUris(Peers.Peer peer) throws Exception {
    return McpJson.resultFromTree(
            peer.request(McpMethods.RESOURCES_LIST, McpJson.object()), ListResourcesResult.class)
        .resources()
        .stream()
        .map(Resource::uri)
        .toList();
  }

  private static List<String> promptNames(Peers.Peer peer) throws Exception {
    return McpJson.resultFromTree(
            peer.request(McpMethods.PROMPTS_LIST, McpJson.object()), ListPromptsResult.class)
        .prompts()
        .stream()
        .map(Prompt::name)
        .toList();
  }

  private static String read(Peers.Peer peer, String uri) throws Exception {
    var r =
        McpJson.resultFromTree(
            peer.request(McpMethods.RESOURCES_READ, McpJson.toObject(ReadResourceParams.of(uri))),
            dev.herald.wire.ReadResourceResult.class);
    return ((ResourceContents.Text) r.contents().get(0)).text();
  }

  @Test
  void aSessionsOwnResourcesAndPromptsAreSeenAndAnnouncedOnlyInThatSession() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server = server(clock);
    try (Peers.Peer a = Peers.connect(server);
        Peers.Peer b = Peers.connect(server)) {
      a.session()
          .resources()
          .add(
              Resource.of("test://mine", "mine", "text/plain"),
              ResourceHandler.text("text/plain", () -> "a's own"));
      a.session()
          .resources()
          .add(
              Resource.of("test://shared", "shared", "text/plain"),
              ResourceHandler.text("text/plain", () -> "a's version"));
      a.session()
          .prompts()
          .add(
              Prompt.of("my_prompt", "Only session A has it", List.of()),
              get -> GetPromptResult.of(null, List.of(PromptMessage.user("from A's overlay"))));
      clock.advance(Duration.ofMillis(10));
      a.client().ping();
      b.client().ping();

      assertThat(resourceUris(a)).containsExactly("test://shared", "test://mine");
      assertThat(resourceUris(b)).containsExactly("test://shared");
      assertThat(read(a, "test://shared")).isEqualTo("a's version");
      assertThat(read(b, "test://shared")).isEqualTo("server's");
      assertThat(read(a, "test://mine")).isEqualTo("a's own");
      assertThat(
              b.error(
                      McpMethods.RESOURCES_READ,
                      McpJson.toObject(ReadResourceParams.of("test://mine")))
                  .code())
          .isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
      assertThat(promptNames(a)).containsExactly("my_prompt", "shared_prompt");
      assertThat(promptNames(b)).containsExactly("shared_prompt");
      assertThat(
              b.error(
                      McpMethods.PROMPTS_GET,
                      McpJson.toObject(GetPromptParams.of("my_prompt", null)))
                  .code())
          .isEqualTo(ErrorCodes.INVALID_PARAMS);

      // Per area, the first change at once and one for the rest of the burst, to A only.
      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).hasSize(2);
      assertThat(a.wire().notifications(McpMethods.PROMPTS_LIST_CHANGED)).hasSize(1);
      assertThat(b.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).isEmpty();
      assertThat(b.wire().notifications(McpMethods.PROMPTS_LIST_CHANGED)).isEmpty();

      // Removing the overlay entry shows the server's again.
      assertThat(a.session().resources().remove("test://shared")).isTrue();
      assertThat(read(a, "test://shared")).isEqualTo("server's");
    }
  }
}
