package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 basic/utilities/tasks page. */
class LegacyTasksWireTest {

  private static final String ID = "786512e2-9e0d-44bd-8f29-789f320fe840";

  @Test
  void callToolParamsCarryTaskMetadata() {
    CallToolParams p =
        assertRoundTrip(
            """
            {"name":"get_weather","arguments":{"city":"New York"},"task":{"ttl":60000}}
            """,
            CallToolParams.class);
    assertThat(p.taskMetadata()).isEqualTo(TaskMetadata.of(60_000L));
  }

  @Test
  void createTaskResultRoundTrips() {
    CreateTaskResult r =
        assertRoundTrip(
            """
            {"task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
              "statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z",
              "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000},
             "_meta":{"io.modelcontextprotocol/model-immediate-response":"Started; I will report back."}}
            """,
            CreateTaskResult.class);
    assertThat(r.task().status()).isEqualTo(TaskStatus.WORKING);
    assertThat(r.task().terminal()).isFalse();
    assertThat(r.modelImmediateResponse()).isEqualTo("Started; I will report back.");
  }

  @Test
  void getTaskResultIsFlat() {
    GetTaskResult r =
        assertRoundTrip(
            """
            {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
             "statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":30000,"pollInterval":5000}
            """,
            GetTaskResult.class);
    assertThat(r.task().ttl()).isEqualTo(30_000L);
    assertSameJson(GetTaskResult.of(r.task()), McpJson.toTree(r).toString());
  }

  @Test
  void unlimitedTtlIsWrittenAsNull() {
    GetTaskResult r =
        assertRoundTrip(
            """
            {"taskId":"t","status":"input_required","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":null}
            """,
            GetTaskResult.class);
    assertThat(r.ttl()).isNull();
    assertThat(McpJson.toTree(r).get("ttl").isNull()).isTrue();
    assertThat(McpJson.toTree(r).has("pollInterval")).isFalse();
  }

  @Test
  void cancelTaskResultAndStatusNotificationRoundTrip() {
    CancelTaskResult c =
        assertRoundTrip(
            """
            {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"cancelled",
             "statusMessage":"The task was cancelled by request.","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":30000,"pollInterval":5000}
            """,
            CancelTaskResult.class);
    assertThat(c.status().isTerminal()).isTrue();
    TaskStatusNotificationParams n =
        assertRoundTrip(
            """
            {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"completed","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:50:00Z","ttl":60000,"pollInterval":5000,"_meta":{"x":{"y":[1,2]}}}
            """,
            TaskStatusNotificationParams.class);
    assertThat(n.task().status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  void listTasksResultRoundTrips() {
    ListTasksResult r =
        assertRoundTrip(
            """
            {"tasks":[
              {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working","createdAt":"2025-11-25T10:30:00Z",
               "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":30000,"pollInterval":5000},
              {"taskId":"abc123-def456-ghi789","status":"completed","createdAt":"2025-11-25T09:15:00Z",
               "lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000}],
             "nextCursor":"next-page-cursor"}
            """,
            ListTasksResult.class);
    assertThat(r.tasks())
        .extracting(Task::status)
        .containsExactly(TaskStatus.WORKING, TaskStatus.COMPLETED);
  }

  @Test
  void taskIdParamsRoundTrip() {
    assertThat(assertRoundTrip("{\"taskId\":\"" + ID + "\"}", GetTaskParams.class).taskId())
        .isEqualTo(ID);
    assertThat(assertRoundTrip("{\"taskId\":\"" + ID + "\"}", GetTaskPayloadParams.class).taskId())
        .isEqualTo(ID);
    assertThat(
            assertRoundTrip("{\"taskId\":\"" + ID + "\",\"_meta\":{}}", CancelTaskParams.class)
                .taskId())
        .isEqualTo(ID);
    assertThatThrownBy(() -> decode("{}", GetTaskParams.class)).isInstanceOf(McpException.class);
  }

  @Test
  void taskPayloadKeepsTheOriginalResultAndRelatedTask() {
    GetTaskPayloadResult r =
        assertRoundTrip(
            """
            {"content":[{"type":"text","text":"Current weather in New York:\\nTemperature: 72°F\\nConditions: Partly cloudy"}],
             "isError":false,
             "_meta":{"io.modelcontextprotocol/related-task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840"}}}
            """,
            GetTaskPayloadResult.class);
    assertThat(r.relatedTask()).isEqualTo(RelatedTaskMetadata.of(ID));
    assertThat(r.as(CallToolResult.class).firstText()).startsWith("Current weather");

    GetTaskPayloadResult made = GetTaskPayloadResult.of(CallToolResult.text("done"), ID);
    assertSameJson(
        made,
        """
        {"content":[{"type":"text","text":"done"}],
         "_meta":{"io.modelcontextprotocol/related-task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840"}}}
        """);
  }

  @Test
  void unknownTaskStatusIsRefused() {
    assertThatThrownBy(() ->
            decode(
                """
                {"taskId":"t","status":"paused","createdAt":"a","lastUpdatedAt":"b","ttl":null}
                """,
                Task.class))
        .isInstanceOf(McpException.class);
    assertThat(List.of(TaskStatus.values()))
        .extracting(TaskStatus::wire)
        .containsExactly("working", "input_required", "completed", "failed", "cancelled");
  }
}
