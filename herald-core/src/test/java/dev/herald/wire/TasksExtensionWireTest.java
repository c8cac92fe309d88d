package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden JSON from the ext-tasks specification ({@code specification/draft/tasks.md}). */
class TasksExtensionWireTest {

  @Test
  void createTaskResultIsFlatWithResultTypeTask() {
    TasksExtension.CreateTaskResult r =
        assertRoundTrip(
            """
            {"resultType":"task","taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
             "statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:40:00Z","ttlMs":60000,"pollIntervalMs":5000}
            """,
            TasksExtension.CreateTaskResult.class);
    assertThat(r.status()).isEqualTo(TaskStatus.WORKING);
    assertThat(ResultType.of(McpJson.toTree(r))).isEqualTo(ResultType.TASK);
    assertSameJson(
        TasksExtension.CreateTaskResult.of(
            "t", TaskStatus.WORKING, "2026-01-01T00:00:00Z", null, null),
        """
        {"resultType":"task","taskId":"t","status":"working","createdAt":"2026-01-01T00:00:00Z",
         "lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null}
        """);
  }

  @Test
  void createTaskResultRefusesACompleteResult() {
    assertThatThrownBy(() ->
            decode(
                """
                {"resultType":"complete","taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b","ttlMs":null}
                """,
                TasksExtension.CreateTaskResult.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void workingTaskFromTasksGetRoundTrips() {
    TasksExtension.DetailedTask t =
        assertRoundTrip(
            """
            {"resultType":"complete","taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
             "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttlMs":3600000,"pollIntervalMs":5000}
            """,
            TasksExtension.DetailedTask.class,
            "resultType");
    assertThat(t).isInstanceOf(TasksExtension.Working.class);
    assertThat(t.status()).isEqualTo(TaskStatus.WORKING);
  }

  @Test
  void inputRequiredTaskCarriesItsInputRequests() {
    TasksExtension.DetailedTask t =
        assertRoundTrip(
            """
            {"resultType":"complete","taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"input_required",
             "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttlMs":3600000,"pollIntervalMs":5000,
             "inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.",
               "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}
            """,
            TasksExtension.DetailedTask.class,
            "resultType");
    assertThat(t)
        .isInstanceOfSatisfying(
            TasksExtension.InputRequired.class,
            i -> assertThat(i.inputRequests().get("name")).isInstanceOf(InputRequest.Elicit.class));
  }

  @Test
  void completedTaskNotificationInlinesTheResult() {
    TasksExtension.DetailedTask t =
        assertRoundTrip(
            """
            {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"completed","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:50:00Z","ttlMs":60000,"pollIntervalMs":5000,
             "result":{"content":[{"type":"text","text":"Operation completed successfully."}],"isError":false},
             "_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}
            """,
            TasksExtension.DetailedTask.class);
    assertThat(t)
        .isInstanceOfSatisfying(
            TasksExtension.Completed.class,
            c ->
                assertThat(c.resultAs(CallToolResult.class).firstText())
                    .isEqualTo("Operation completed successfully."));
    assertThat(MetaKeys.subscriptionId(t.meta())).isEqualTo(RequestId.of("listen-1"));
  }

  @Test
  void failedTaskCarriesTheJsonRpcError() {
    TasksExtension.DetailedTask t =
        assertRoundTrip(
            """
            {"taskId":"t","status":"failed","statusMessage":"boom","createdAt":"2025-11-25T10:30:00Z",
             "lastUpdatedAt":"2025-11-25T10:50:00Z","ttlMs":null,
             "error":{"code":-32603,"message":"Internal error","data":{"detail":"x"}}}
            """,
            TasksExtension.DetailedTask.class);
    assertThat(t)
        .isInstanceOfSatisfying(
            TasksExtension.Failed.class,
            f -> assertThat(f.error().code()).isEqualTo(ErrorCodes.INTERNAL_ERROR));
    assertThat(t.ttlMs()).isNull();
    assertThat(McpJson.toTree(t).get("ttlMs").isNull()).isTrue();
  }

  @Test
  void cancelledTaskRoundTripsAndStatusesDispatch() {
    TasksExtension.DetailedTask t =
        assertRoundTrip(
            """
            {"taskId":"t","status":"cancelled","createdAt":"a","lastUpdatedAt":"b","ttlMs":1000}
            """,
            TasksExtension.DetailedTask.class);
    assertThat(t).isInstanceOf(TasksExtension.Cancelled.class);
    assertThatThrownBy(() ->
            decode(
                "{\"taskId\":\"t\",\"status\":\"paused\",\"createdAt\":\"a\",\"lastUpdatedAt\":\"b\"}",
                TasksExtension.DetailedTask.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void updateTaskParamsRoundTrip() {
    TasksExtension.UpdateTaskParams p =
        assertRoundTrip(
            """
            {"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}}
            """,
            TasksExtension.UpdateTaskParams.class);
    assertThat(p.inputResponses().elicit("name").accepted()).isTrue();
    assertSameJson(
        TasksExtension.UpdateTaskParams.of(
            "t", InputResponses.of(Map.of("k", ElicitResult.cancel()))),
        "{\"taskId\":\"t\",\"inputResponses\":{\"k\":{\"action\":\"cancel\"}}}");
  }

  @Test
  void extensionMethodNamesDifferFromLegacy() {
    assertThat(TasksExtension.NOTIFICATION)
        .isEqualTo("notifications/tasks")
        .isNotEqualTo(McpMethods.TASKS_STATUS);
    assertThat(TasksExtension.TASKS_UPDATE).isEqualTo("tasks/update");
    assertThat(TasksExtension.ID).isEqualTo("io.modelcontextprotocol/tasks");
  }
}
