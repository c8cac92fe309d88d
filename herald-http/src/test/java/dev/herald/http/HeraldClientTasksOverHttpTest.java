package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.client.TaskSnapshot;
import dev.herald.server.McpServer;
import dev.herald.server.RequestContext;
import dev.herald.server.TaskStart;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressUpdate;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client drives Herald's server's task tools over a real Streamable HTTP endpoint, in
 * both eras (2025-11-25 tasks; the 2026-07-28 extension {@code io.modelcontextprotocol/tasks}):
 * the task's progress and status changes reach the client after the POST that created the task
 * was answered, in order; a task is unknown to another session in the handshake era and resumed
 * by id from a second client in 2026-07-28 (where a task belongs to whoever holds its id); cancel
 * is {@code tasks/cancel} and trips the handler's token; a task's elicitation is answered by the
 * client's handler.
 */
@Timeout(30)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class HeraldClientTasksOverHttpTest {
  @Parameter ClientEngine engine;

  private final CountDownLatch created = new CountDownLatch(1);
  private final CountDownLatch gate = new CountDownLatch(1);
  private final AtomicBoolean sawCancel = new AtomicBoolean();
  private McpHttpServer http;
  private McpServer mcp;
  private final List<McpClient> clients = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    ObjectNode named = McpJson.object().put("type", "object");
    named.putObject("properties").putObject("name").put("type", "string");
    mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("work").taskSupport(TaskSupport.REQUIRED).build(),
                TaskStart.AT_ONCE,
                call -> {
                  RequestContext ctx = call.context();
                  created.await(); // the task's POST has been answered
                  ctx.progress().report(1, 2.0, "one");
                  ctx.statusMessage("halfway");
                  gate.await();
                  ctx.progress().report(2, 2.0, "two");
                  return CallToolResult.text("done");
                })
            .tool(
                Tool.builder("hang").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  try {
                    new CountDownLatch(1).await();
                  } catch (InterruptedException e) {
                    sawCancel.set(call.context().cancellation().isCancelled());
                    throw e;
                  }
                  return CallToolResult.text("never");
                })
            .tool(
                Tool.builder("ask").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  ElicitResult r = call.context().elicit(ElicitParams.form("Your name?", named));
                  return CallToolResult.text("hello " + r.content().get("name").stringValue());
                })
            .build();
    http = McpHttpServer.builder().server(mcp).port(0).build().start();
  }

  @AfterEach
  void stop() {
    gate.countDown();
    clients.forEach(McpClient::close);
    ClientEngine.closeAll();
    http.close();
    mcp.close();
  }

  enum Era {
    HANDSHAKE,
    MODERN
  }

  private McpClient connect(Era era) throws InterruptedException {
    McpClient client =
        McpClient.builder()
            .eras(era == Era.HANDSHAKE ? EraPreference.HANDSHAKE_ONLY : EraPreference.MODERN_ONLY)
            .elicitation((p, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")))
            .connect(engine.transport(http.uri()));
    clients.add(client);
    assertThat(client.era())
        .isEqualTo(era == Era.HANDSHAKE ? ProtocolVersion.Era.LEGACY : ProtocolVersion.Era.MODERN);
    return client;
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void progressAndStatusReachTheClientAfterThePostThatCreatedTheTaskReturned(Era era)
      throws Exception {
    McpClient client = connect(era);
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();

    TaskHandle task =
        client.callToolAsTask(
            "work",
            null,
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build(),
            statuses::add);
    created.countDown(); // callToolAsTask returned: the creating POST was answered

    eventually(
        () -> statuses.stream().anyMatch(s -> "halfway".equals(s.statusMessage())),
        "the status message set after the POST returned");
    gate.countDown();
    CallToolResult result = task.await();

    assertThat(result.firstText()).isEqualTo("done");
    eventually(() -> statuses.getLast().terminal(), "the terminal status");
    assertThat(statuses.getFirst().status()).isEqualTo(TaskStatus.WORKING);
    assertThat(statuses.getLast().status()).isEqualTo(TaskStatus.COMPLETED);
    for (int i = 1; i < statuses.size(); i++) {
      TaskSnapshot a = statuses.get(i - 1);
      TaskSnapshot b = statuses.get(i);
      assertThat(
              a.status() != b.status()
                  || !java.util.Objects.equals(a.statusMessage(), b.statusMessage()))
          .as("each change told once: %s then %s", a, b)
          .isTrue();
    }
    if (era == Era.HANDSHAKE) {
      // 2025-11-25: the task's progress keeps its original token and rides the GET stream
      assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0);
      assertThat(task.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.RESPONSE);
    }
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void aPlainCallOfATaskToolEndsWithItsFinalResult(Era era) throws Exception {
    McpClient client = connect(era);
    created.countDown();
    gate.countDown();

    assertThat(client.callTool("work", null).firstText()).isEqualTo("done");
    assertThat(client.callTool("ask", null).firstText()).isEqualTo("hello Ada");
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void aTaskIsUnknownToAnotherSessionInTheHandshakeEraAndResumedByIdInTheModernOne(Era era)
      throws Exception {
    McpClient first = connect(era);
    TaskHandle task = first.callToolAsTask("work", null, CallOptions.defaults(), null);
    created.countDown();
    McpClient second = connect(era);

    if (era == Era.HANDSHAKE) {
      assertThatThrownBy(() -> second.getTask(task.taskId()))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
      assertThatThrownBy(() -> second.task(task.taskId(), null))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
      assertThat(second.listTasks()).isEmpty();
      gate.countDown();
    } else {
      List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();
      TaskHandle resumed = second.task(task.taskId(), statuses::add);
      gate.countDown();
      assertThat(resumed.await().firstText()).isEqualTo("done");
      eventually(() -> statuses.getLast().terminal(), "the resumed task's terminal status");
    }
    assertThat(task.await().firstText()).isEqualTo("done");
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void cancellingTheHandleSendsTasksCancelAndStopsTheHandler(Era era) throws Exception {
    McpClient client = connect(era);
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();
    TaskHandle task = client.callToolAsTask("hang", null, CallOptions.defaults(), statuses::add);

    assertThat(task.cancel("enough")).isTrue();

    assertThatThrownBy(task::await).isInstanceOf(CancelledException.class);
    eventually(sawCancel::get, "the handler's token tripped");
    assertThat(client.getTask(task.taskId()).status()).isEqualTo(TaskStatus.CANCELLED);
  }

  @org.junit.jupiter.api.Test
  void inTheHandshakeEraATaskBoundToAPrincipalIsResumedByIdFromAnotherSessionOfThatPrincipal()
      throws Exception {
    McpServer bound =
        McpServer.builder()
            .requestState(
                dev.herald.server.RequestStateSettings.builder()
                    .principal(ctx ->
                        ctx.clientInfo().map(dev.herald.wire.Implementation::name).orElse(null))
                    .build())
            .tool(
                Tool.builder("work").taskSupport(TaskSupport.REQUIRED).build(),
                TaskStart.AT_ONCE,
                call -> {
                  gate.await();
                  return CallToolResult.text("done");
                })
            .build();
    try (McpHttpServer server = McpHttpServer.builder().server(bound).port(0).build().start()) {
      McpClient alice = principal(server, "alice");
      TaskHandle task = alice.callToolAsTask("work", null, CallOptions.defaults(), null);
      McpClient aliceAgain = principal(server, "alice");
      McpClient bob = principal(server, "bob");

      TaskHandle resumed = aliceAgain.task(task.taskId(), null);
      assertThatThrownBy(() -> bob.getTask(task.taskId()))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
      gate.countDown();

      assertThat(resumed.await().firstText()).isEqualTo("done");
      assertThat(aliceAgain.listTasks()).extracting(TaskSnapshot::taskId).contains(task.taskId());
    } finally {
      clients.forEach(McpClient::close);
      bound.close();
    }
  }

  private McpClient principal(McpHttpServer server, String name) throws InterruptedException {
    McpClient client =
        McpClient.builder()
            .info(name, "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(engine.transport(server.uri()));
    clients.add(client);
    return client;
  }
}
