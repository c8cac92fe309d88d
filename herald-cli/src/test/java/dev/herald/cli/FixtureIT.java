package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.internal.session.EngineAccess;
import dev.herald.testing.HeraldJar;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.PromptReference;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.UnsubscribeParams;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The demo server's resources, prompts and conformance fixture, over a real stdio subprocess. */
@Timeout(60)
class FixtureIT {

  private static McpClient connect() throws InterruptedException {
    // Raw resources/subscribe and friends below are handshake-era requests.
    return McpClient.builder()
        .info("fixture-it", "1")
        .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
        .connect(
            SubprocessTransport.builder(HeraldJar.command(List.of("-Xmx96m"), "serve", "--stdio"))
                .stderr(line -> System.err.println("[server] " + line))
                .build());
  }

  private static JsonNode call(McpClient client, String method, Object params) throws Exception {
    ObjectNode p = params instanceof ObjectNode o ? o : McpJson.toObject(params);
    return EngineAccess.of(client).request(method, p).result().get();
  }

  @Test
  void counterUpdatesReachTheSubscriberAndTheConformanceResourcesRead() throws Exception {
    try (McpClient client = connect()) {
      assertThat(client.serverCapabilities().resourcesSubscribe()).isTrue();
      assertThat(client.serverCapabilities().promptsListChanged()).isTrue();
      assertThat(client.serverCapabilities().completions()).isNotNull();

      call(client, McpMethods.RESOURCES_SUBSCRIBE, SubscribeParams.of("demo://counter"));
      assertThat(client.callTool("update_resource", McpJson.object()).firstText())
          .isEqualTo("updated demo://counter; 1 subscribed session(s) notified");
      assertThat(
              call(client, McpMethods.RESOURCES_READ, ReadResourceParams.of("demo://counter"))
                  .get("contents")
                  .get(0)
                  .get("text")
                  .stringValue())
          .isEqualTo("1");
      call(client, McpMethods.RESOURCES_UNSUBSCRIBE, UnsubscribeParams.of("demo://counter"));
      assertThat(client.callTool("update_resource", McpJson.object()).firstText())
          .isEqualTo("updated demo://counter; 0 subscribed session(s) notified");

      JsonNode templated =
          call(
              client, McpMethods.RESOURCES_READ, ReadResourceParams.of("test://template/123/data"));
      assertThat(templated.get("contents").get(0).get("text").stringValue())
          .isEqualTo("{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}");
      JsonNode binary =
          call(client, McpMethods.RESOURCES_READ, ReadResourceParams.of("test://static-binary"));
      assertThat(binary.get("contents").get(0).get("mimeType").stringValue())
          .isEqualTo("image/png");
      assertThat(binary.get("contents").get(0).has("blob")).isTrue();
      call(client, McpMethods.RESOURCES_SUBSCRIBE, SubscribeParams.of("test://watched-resource"));
      call(
          client,
          McpMethods.RESOURCES_UNSUBSCRIBE,
          UnsubscribeParams.of("test://watched-resource"));
    }
  }

  @Test
  void conformancePromptsToolsAndCompletionsAnswerAsTheSuiteExpects() throws Exception {
    try (McpClient client = connect()) {
      JsonNode prompt =
          call(
              client,
              McpMethods.PROMPTS_GET,
              GetPromptParams.of(
                  "test_prompt_with_arguments",
                  Map.of("arg1", "testValue1", "arg2", "testValue2")));
      assertThat(prompt.get("messages").get(0).get("content").get("text").stringValue())
          .isEqualTo("Prompt with arguments: arg1='testValue1', arg2='testValue2'");
      JsonNode prompts = call(client, McpMethods.PROMPTS_LIST, PaginatedParams.first());
      prompts
          .get("prompts")
          .forEach(p -> assertThat(p.get("description").stringValue()).isNotEmpty());
      JsonNode completion =
          call(
              client,
              McpMethods.COMPLETION_COMPLETE,
              CompleteParams.of(PromptReference.of("test_prompt_with_arguments"), "arg1", "test"));
      assertThat(completion.get("completion").get("values").isArray()).isTrue();

      assertThat(client.listTools()).allSatisfy(t -> assertThat(t.description()).isNotBlank());
      assertThat(client.callTool("test_simple_text", null).firstText())
          .isEqualTo("This is a simple text response for testing.");
      var error = client.callTool("test_error_handling", null);
      assertThat(error.isError()).isTrue();
      assertThat(error.firstText())
          .isEqualTo("This tool intentionally returns an error for testing");

      assertThat(client.callTool("touch", McpJson.object().put("area", "prompts")).firstText())
          .isEqualTo("touched prompts");
      assertThat(client.callTool("touch", McpJson.object().put("area", "resources")).firstText())
          .isEqualTo("touched resources");
      assertThat(call(client, McpMethods.RESOURCES_LIST, PaginatedParams.first()).get("resources"))
          .anySatisfy(r -> assertThat(r.get("uri").stringValue()).startsWith("demo://dummy/"));
    }
  }
}
