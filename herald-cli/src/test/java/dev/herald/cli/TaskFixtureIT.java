package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.testing.HeraldJar;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fixture's task tools (docs/fixture.md, "Tasks") listed with the task support the conformance
 * suite's {@code tasks-*} scenarios expect, and answering plain (not task-augmented) calls over a
 * real {@code herald serve --stdio} process: the same handlers that run as tasks.
 */
@Timeout(60)
class TaskFixtureIT {
  private static final List<String> ELICITED = new CopyOnWriteArrayList<>();

  private static McpClient connect() throws InterruptedException {
    return McpClient.builder()
        .info("task-fixture-it", "1")
        .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
        .elicitation((params, ctx) -> {
          ELICITED.add(params.message());
          var props = params.requestedSchema().get("properties");
          var content = McpJson.object();
          if (props.has("name")) {
            content.put("name", "Alice");
          }
          if (props.has("confirm")) {
            content.put("confirm", true);
          }
          return ElicitResult.accept(content);
        })
        .connect(
            SubprocessTransport.builder(HeraldJar.command(List.of("-Xmx96m"), "serve", "--stdio"))
                .stderr(line -> System.err.println("[server] " + line))
                .build());
  }

  @Test
  void theTaskToolsAreListedWithTheTaskSupportTheSuiteExpects() throws Exception {
    try (McpClient client = connect()) {
      Map<String, TaskSupport> support =
          client.listTools().stream()
              .collect(Collectors.toMap(Tool::name, Tool::taskSupport, (a, b) -> a));
      assertThat(support)
          .containsEntry("greet", TaskSupport.FORBIDDEN)
          .containsEntry("slow_compute", TaskSupport.OPTIONAL)
          .containsEntry("failing_job", TaskSupport.REQUIRED)
          .containsEntry("protocol_error_job", TaskSupport.OPTIONAL)
          .containsEntry("confirm_delete", TaskSupport.OPTIONAL)
          .containsEntry("multi_input", TaskSupport.OPTIONAL)
          .containsEntry("test_tool_with_task", TaskSupport.REQUIRED);
      assertThat(client.listTools())
          .allSatisfy(t -> assertThat(t.description()).as(t.name()).isNotBlank());
    }
  }

  @Test
  void aPlainCallOfEachOptionalTaskToolAnswersDirectly() throws Exception {
    try (McpClient client = connect()) {
      assertThat(client.callTool("greet", McpJson.object().put("name", "World")).firstText())
          .isEqualTo("Hello, World!");

      List<ProgressUpdate> progress = new CopyOnWriteArrayList<>();
      var withProgress = CallOptions.builder().progress(progress::add).build();
      assertThat(
              client
                  .callTool(
                      "slow_compute",
                      McpJson.object().put("seconds", 0.5).put("label", "half"),
                      withProgress)
                  .firstText())
          .isEqualTo("half: computed for 0.5 s");
      assertThat(progress).isNotEmpty();
      assertThat(progress.getLast().progress()).isEqualTo(2.0);
      assertThat(progress.getLast().total()).isEqualTo(2.0);
      assertThat(client.callTool("slow_compute", McpJson.object()).firstText())
          .isEqualTo("slow_compute: computed for 0 s");

      assertThat(
              client
                  .callTool("confirm_delete", McpJson.object().put("filename", "a.txt"))
                  .firstText())
          .isEqualTo("Deleted a.txt");
      assertThat(ELICITED).contains("Delete a.txt? (nothing is deleted)");
      assertThat(client.callTool("multi_input", McpJson.object()).firstText())
          .isEqualTo("name=Alice, confirm=true");

      assertThatThrownBy(() -> client.callTool("protocol_error_job", McpJson.object()))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32603));
    }
  }

  @Test
  void slowComputeRefusesANegativeOrHugeOrNonNumericDuration() throws Exception {
    try (McpClient client = connect()) {
      for (Object seconds : List.of(-1, 3601, "ten")) {
        var args = McpJson.object();
        args.set("seconds", McpJson.mapper().valueToTree(seconds));
        assertThat(client.callTool("slow_compute", args).failed())
            .as("seconds %s", seconds)
            .isTrue();
      }
    }
  }
}
