package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.client.TaskSnapshot;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressUpdate;
import dev.herald.session.TimeoutException;
import dev.herald.transport.Transport;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client drives the task tools of a real TypeScript SDK 1.32.2 server ({@code
 * interop/ts/task-server.mjs}, MCP 2025-11-25 experimental tasks) over stdio and over Streamable
 * HTTP: the result, the task's progress on the call's own listener, the status listener, {@code
 * tasks/cancel} on cancel and on timeout, {@code input_required} with an elicitation delivered on
 * {@code tasks/result}, and resuming a task by id.
 */
@Timeout(60)
class TypeScriptTaskServerIT {
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private McpClient connect(String binding, McpClient.Builder builder) throws Exception {
    McpClient client = builder.connect(transport(binding));
    opened.add(client);
    return client;
  }

  private TsPeer.HttpServer http;

  private Transport transport(String binding) throws Exception {
    Path dir = TsPeer.dir();
    if (binding.equals("stdio")) {
      return SubprocessTransport.builder("node", dir.resolve("task-server.mjs").toString())
          .directory(dir)
          .stderr(line -> System.err.println("[ts-task-server] " + line))
          .build();
    }
    if (http == null) {
      Process p =
          new ProcessBuilder("node", dir.resolve("task-server.mjs").toString(), "--http", "0")
              .directory(dir.toFile())
              .start();
      var err =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  p.getErrorStream(), java.nio.charset.StandardCharsets.UTF_8));
      String line = err.readLine();
      if (line == null || !line.startsWith("listening on ")) {
        p.destroyForcibly();
        throw new IllegalStateException("TypeScript task server did not start: " + line);
      }
      Thread.ofVirtual()
          .start(() -> err.lines().forEach(l -> System.err.println("[ts-http] " + l)));
      http =
          new TsPeer.HttpServer(
              p,
              java.net.URI.create(
                  "http://127.0.0.1:" + line.substring("listening on ".length()).trim() + "/mcp"));
      opened.add(0, http);
    }
    return new StreamableHttpClientTransport(http.uri());
  }

  static ObjectNode args(Object... kv) {
    ObjectNode o = McpJson.object();
    for (int i = 0; i < kv.length; i += 2) {
      o.set((String) kv[i], McpJson.toTree(kv[i + 1]));
    }
    return o;
  }

  private static McpClient.Builder handshake() {
    return McpClient.builder().eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aTaskToolEndsWithItsResultAfterItsProgressAndEveryStatusChangeOnce(String binding)
      throws Exception {
    McpClient client = connect(binding, handshake());
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();
    TaskHandle task =
        client.callToolAsTask(
            "task_steps",
            args("steps", 4, "delayMs", 40),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build(),
            statuses::add);
    assertThat(task.taskId()).isNotBlank();

    CallToolResult result = task.await();

    assertThat(result.firstText()).isEqualTo("completed 4 steps");
    assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 3.0, 4.0);
    ProgressRecord record = task.progressRecord().orElseThrow();
    assertThat(record.terminal()).isEqualTo(ProgressRecord.Terminal.RESPONSE);
    assertThat(record.accepted()).isEqualTo(4);
    eventually(
        () -> !statuses.isEmpty() && statuses.getLast().terminal(), "the terminal status is told");
    assertThat(statuses.getFirst().status()).isEqualTo(TaskStatus.WORKING);
    assertThat(statuses.getLast().status()).isEqualTo(TaskStatus.COMPLETED);
    for (int i = 1; i < statuses.size(); i++) {
      TaskSnapshot a = statuses.get(i - 1);
      TaskSnapshot b = statuses.get(i);
      assertThat(b.lastUpdatedAt()).isAfterOrEqualTo(a.lastUpdatedAt());
      assertThat(
              b.status() != a.status()
                  || !java.util.Objects.equals(b.statusMessage(), a.statusMessage()))
          .as("no status told twice: %s then %s", a, b)
          .isTrue();
    }
    assertThat(statuses).extracting(TaskSnapshot::statusMessage).contains("step 4 of 4");
    assertThat(task.status().status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aPlainCallOfAToolThatRequiresATaskRunsItAsOneAndReturnsTheFinalResult(String binding)
      throws Exception {
    McpClient client = connect(binding, handshake());

    CallToolResult result = client.callTool("task_steps", args("steps", 2, "delayMs", 10));

    assertThat(result.firstText()).isEqualTo("completed 2 steps");
    assertThat(client.listTasks())
        .extracting(TaskSnapshot::status)
        .containsExactly(TaskStatus.COMPLETED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aFailedTaskGivesTheToolErrorResultAndAForbiddenToolIsRefusedBeforeSending(String binding)
      throws Exception {
    McpClient client = connect(binding, handshake());
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();

    CallToolResult result =
        client.callToolAsTask("task_fail", null, CallOptions.defaults(), statuses::add).await();

    assertThat(result.failed()).isTrue();
    assertThat(result.firstText()).isEqualTo("it broke");
    eventually(
        () -> !statuses.isEmpty() && statuses.getLast().status() == TaskStatus.FAILED,
        "failed is told");
    assertThatThrownBy(() ->
            client.callToolAsTask("plain_echo", args("text", "x"), CallOptions.defaults(), null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("forbidden");
    assertThat(client.listTasks()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void cancellingAHandleSendsTasksCancelAndTheTaskEndsCancelled(String binding) throws Exception {
    McpClient client = connect(binding, handshake());
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();
    TaskHandle task =
        client.callToolAsTask(
            "task_forever",
            null,
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build(),
            statuses::add);
    eventually(() -> updates.size() >= 2, "the task's progress after its creation");

    assertThat(task.cancel("enough")).isTrue();

    assertThatThrownBy(task::await).isInstanceOf(CancelledException.class);
    assertThat(client.getTask(task.taskId()).status()).isEqualTo(TaskStatus.CANCELLED);
    eventually(() -> statuses.getLast().status() == TaskStatus.CANCELLED, "cancelled is told last");
    assertThat(task.progressRecord().orElseThrow().terminal())
        .isEqualTo(ProgressRecord.Terminal.CANCELLED);
    assertThat(task.cancel("again")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aTaskWhoseClockRunsOutIsCancelledWithTasksCancel(String binding) throws Exception {
    McpClient client = connect(binding, handshake());
    // the clock starts as the request leaves and must outlast the task's creation by a Node
    // process on a busy machine; run out before the task exists, it cancels the request instead
    TaskHandle task =
        client.callToolAsTask(
            "task_forever",
            null,
            CallOptions.builder().timeout(Duration.ofSeconds(3)).build(),
            null);

    assertThatThrownBy(task::await).isInstanceOf(TimeoutException.class);

    // the TypeScript server cancels a task only on tasks/cancel (notifications/cancelled names a
    // request, and the request that created the task is long answered)
    assertThat(client.getTask(task.taskId()).status()).isEqualTo(TaskStatus.CANCELLED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void anInputRequiredTaskGetsItsElicitationAnsweredByTheClientsHandler(String binding)
      throws Exception {
    List<ObjectNode> asked = new CopyOnWriteArrayList<>();
    McpClient client =
        connect(
            binding,
            handshake()
                .elicitation((params, context) -> {
                  asked.add(params.meta() == null ? McpJson.object() : params.meta());
                  return ElicitResult.accept(args("name", "Ada"));
                }));
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();

    TaskHandle task =
        client.callToolAsTask("task_ask", null, CallOptions.defaults(), statuses::add);
    CallToolResult result = task.await();

    assertThat(result.firstText()).isEqualTo("accept: hello Ada");
    assertThat(asked).hasSize(1);
    assertThat(MetaKeys.relatedTask(asked.getFirst()).taskId()).isEqualTo(task.taskId());
    eventually(() -> statuses.getLast().terminal(), "the terminal status is told");
    assertThat(statuses).extracting(TaskSnapshot::status).contains(TaskStatus.INPUT_REQUIRED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aTaskIsResumedByIdAndIsUnknownToAnotherSession(String binding) throws Exception {
    McpClient client = connect(binding, handshake());
    TaskHandle first =
        client.callToolAsTask(
            "task_steps", args("steps", 6, "delayMs", 50), CallOptions.defaults(), null);

    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();
    TaskHandle resumed = client.task(first.taskId(), statuses::add);

    assertThat(resumed.await().firstText()).isEqualTo("completed 6 steps");
    assertThat(first.await().firstText()).isEqualTo("completed 6 steps");
    eventually(() -> statuses.getLast().terminal(), "the terminal status is told");

    McpClient other = connect(binding, handshake());
    assertThatThrownBy(() -> other.getTask(first.taskId()))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
  }

  @ParameterizedTest
  @ValueSource(strings = {"stdio", "http"})
  void aClientThatHostsTasksRunsTheServersTaskAugmentedElicitationAsATask(String binding)
      throws Exception {
    List<String> asked = new CopyOnWriteArrayList<>();
    McpClient client =
        connect(
            binding,
            handshake()
                .hostTasks(true)
                .elicitation((params, context) -> {
                  asked.add(params.message());
                  return ElicitResult.accept(args("color", "teal"));
                }));
    assertThat(client.capabilities().tasks()).isNotNull();

    CallToolResult result = client.callTool("host_elicit", null);

    // what the TypeScript server saw of the client's task: created, then the handler's result
    // fetched with tasks/result
    assertThat(result.firstText())
        .startsWith("created working")
        .contains("result accept {\"color\":\"teal\"}");
    assertThat(asked).containsExactly("Your color?");
  }
}
