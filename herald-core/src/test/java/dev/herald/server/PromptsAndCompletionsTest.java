package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.PromptReference;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ResourceTemplateReference;
import dev.herald.wire.ServerCapabilities;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PromptsAndCompletionsTest {

  static McpServer server() {
    return builder().build();
  }

  static McpServer.Builder builder() {
    return McpServer.builder()
        .prompt(
            Prompt.of(
                "test_prompt_with_arguments",
                "Two arguments",
                List.of(
                    PromptArgument.of("arg1", "First", true),
                    PromptArgument.of("arg2", "Second", false))),
            get ->
                GetPromptResult.of(
                    null,
                    List.of(
                        PromptMessage.user(
                            "arg1='"
                                + get.argument("arg1")
                                + "', arg2='"
                                + get.argument("arg2", "none")
                                + "'"))))
        .completion(
            PromptReference.of("test_prompt_with_arguments"),
            req -> IntStream.range(0, 250).mapToObj(i -> req.value() + i).toList())
        .resourceTemplate(
            ResourceTemplate.of("demo://users/{id}", "user", null),
            ResourceHandler.text("text/plain", () -> "u"))
        .completion(
            ResourceTemplateReference.of("demo://users/{id}"),
            req ->
                List.of("alice", "bob", "carol").stream()
                    .filter(n -> n.startsWith(req.value()))
                    .toList())
        .resource(
            Resource.of("demo://plain", "plain", null),
            ResourceHandler.text("text/plain", () -> "p"));
  }

  static GetPromptResult get(Peers.Peer peer, String name, Map<String, String> args)
      throws Exception {
    return McpJson.resultFromTree(
        peer.request(McpMethods.PROMPTS_GET, McpJson.toObject(GetPromptParams.of(name, args))),
        GetPromptResult.class);
  }

  static CompleteResult complete(Peers.Peer peer, CompleteParams params) throws Exception {
    return McpJson.resultFromTree(
        peer.request(McpMethods.COMPLETION_COMPLETE, McpJson.toObject(params)),
        CompleteResult.class);
  }

  @Test
  void promptHandlersRenderTheirArguments() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      assertThat(
              get(peer, "test_prompt_with_arguments", Map.of("arg1", "x", "arg2", "y")).messages())
          .containsExactly(PromptMessage.user("arg1='x', arg2='y'"));
      assertThat(get(peer, "test_prompt_with_arguments", Map.of("arg1", "x")).messages())
          .containsExactly(PromptMessage.user("arg1='x', arg2='none'"));
      assertThat(peer.client().serverCapabilities().prompts())
          .isEqualTo(new ServerCapabilities.ListChanged(true));
      assertThat(peer.client().serverCapabilities().completions()).isEqualTo(McpJson.object());
    }
  }

  @Test
  void unknownPromptAndMissingRequiredArgumentAreInvalidParams() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      McpException unknown =
          peer.error(McpMethods.PROMPTS_GET, McpJson.toObject(GetPromptParams.of("nope", null)));
      McpException missing =
          peer.error(
              McpMethods.PROMPTS_GET,
              McpJson.toObject(
                  GetPromptParams.of("test_prompt_with_arguments", Map.of("arg2", "y"))));

      assertThat(unknown.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(unknown.getMessage()).isEqualTo("Invalid params: unknown prompt: nope");
      assertThat(missing.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(missing.getMessage())
          .isEqualTo("Invalid params: prompt test_prompt_with_arguments needs the argument 'arg1'");
    }
  }

  @Test
  void promptCatalogChangesReachSessionsAsOneCoalescedListChanged() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    McpServer server = builder().scheduler(clock).build();
    try (Peers.Peer a = Peers.connect(server);
        Peers.Peer b = Peers.connect(server)) {
      server
          .prompts()
          .add(
              Prompt.of("late", "Added later", List.of()),
              g -> GetPromptResult.of(null, List.of()));
      assertThat(server.prompts().remove("late")).isTrue();
      a.client().ping();
      // the first change at once, the rest of the burst not before the window closes
      assertThat(a.wire().notifications(McpMethods.PROMPTS_LIST_CHANGED)).hasSize(1);

      clock.advance(java.time.Duration.ofMillis(10));
      clock.advance(java.time.Duration.ofMillis(10));
      a.client().ping();
      b.client().ping();

      assertThat(a.wire().notifications(McpMethods.PROMPTS_LIST_CHANGED)).hasSize(2);
      assertThat(b.wire().notifications(McpMethods.PROMPTS_LIST_CHANGED)).hasSize(2);
      assertThat(a.wire().notifications(McpMethods.RESOURCES_LIST_CHANGED)).isEmpty();
    }
  }

  @Test
  void completionsAreCappedAtOneHundredWithTotalAndHasMore() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      CompleteResult r =
          complete(
              peer,
              CompleteParams.of(PromptReference.of("test_prompt_with_arguments"), "arg1", "v"));

      assertThat(r.completion().values()).hasSize(100).startsWith("v0", "v1");
      assertThat(r.completion().total()).isEqualTo(250L);
      assertThat(r.completion().hasMore()).isTrue();
    }
  }

  @Test
  void resourceTemplateVariablesComplete() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      CompleteResult r =
          complete(
              peer,
              CompleteParams.of(ResourceTemplateReference.of("demo://users/{id}"), "id", "b"));

      assertThat(r.completion().values()).containsExactly("bob");
      assertThat(r.completion().hasMore()).isFalse();
    }
  }

  @Test
  void completionOfUnknownReferencesOrArgumentsIsInvalidParams() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      for (CompleteParams bad :
          List.of(
              CompleteParams.of(PromptReference.of("nope"), "arg1", ""),
              CompleteParams.of(PromptReference.of("test_prompt_with_arguments"), "arg9", ""),
              CompleteParams.of(ResourceTemplateReference.of("demo://nope/{id}"), "id", ""),
              CompleteParams.of(ResourceTemplateReference.of("demo://users/{id}"), "name", ""))) {
        assertThat(peer.error(McpMethods.COMPLETION_COMPLETE, McpJson.toObject(bad)).code())
            .isEqualTo(ErrorCodes.INVALID_PARAMS);
      }
    }
  }

  @Test
  void withoutPromptsOrCompletionHandlersNeitherIsDeclaredNorServed() throws Exception {
    McpServer server =
        McpServer.builder()
            .resource(
                Resource.of("demo://plain", "plain", null),
                ResourceHandler.text("text/plain", () -> "p"))
            .build();
    try (Peers.Peer peer = Peers.connect(server)) {
      assertThat(peer.client().serverCapabilities().prompts()).isNull();
      assertThat(peer.client().serverCapabilities().completions()).isNull();
      assertThat(peer.error(McpMethods.PROMPTS_LIST, McpJson.object()).code())
          .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(
              peer.error(
                      McpMethods.COMPLETION_COMPLETE,
                      McpJson.toObject(CompleteParams.of(PromptReference.of("x"), "a", "")))
                  .code())
          .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    }
  }
}
