package dev.herald.client;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.server.McpServer;
import dev.herald.server.RequestContext;
import dev.herald.server.TaskStart;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressUpdate;
import dev.herald.session.TimeoutException;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client follows Herald's server's tasks over one pipe (what stdio is), in both eras:
 * the task's progress keeps reaching the call's listener by its token after the task was created
 * (2026-07-28 included: on a pipe, progress still flows by token), the status listener hears
 * working then completed, an elicitation the task asks is answered by the client's handler
 * (related-task request in 2025-11-25, {@code input_required} and {@code tasks/update} in
 * 2026-07-28), and a clock that runs out cancels the task with {@code tasks/cancel}.
 */
@Timeout(30)
class HeraldServerTasksTest {
  private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();
  private final CountDownLatch created = new CountDownLatch(1);
  private final AtomicBoolean handlerCancelled = new AtomicBoolean();

  enum Era {
    HANDSHAKE,
    MODERN
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private McpClient connect(Era era) throws InterruptedException {
    ObjectNode named = McpJson.object().put("type", "object");
    named.putObject("properties").putObject("name").put("type", "string");
    McpServer server =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("steps").taskSupport(TaskSupport.REQUIRED).build(),
                TaskStart.AT_ONCE,
                call -> {
                  RequestContext ctx = call.context();
                  created.await();
                  for (int i = 1; i <= 3; i++) {
                    ctx.progress().report(i, 3.0, "step " + i);
                  }
                  ElicitResult r = ctx.elicit(ElicitParams.form("Your name?", named));
                  return CallToolResult.text("hello " + r.content().get("name").stringValue());
                })
            .tool(
                Tool.builder("hang").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  try {
                    new CountDownLatch(1).await();
                  } catch (InterruptedException e) {
                    handlerCancelled.set(call.context().cancellation().isCancelled());
                    throw e;
                  }
                  return CallToolResult.text("never");
                })
            .build();
    open.add(server::close);
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    McpClient client =
        McpClient.builder()
            .eras(era == Era.HANDSHAKE ? EraPreference.HANDSHAKE_ONLY : EraPreference.MODERN_ONLY)
            .elicitation((p, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")))
            .connect(pair.client());
    open.add(0, client);
    assertThat(client.era())
        .isEqualTo(era == Era.HANDSHAKE ? ProtocolVersion.Era.LEGACY : ProtocolVersion.Era.MODERN);
    return client;
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void aTasksProgressStatusAndQuestionReachTheClientAfterItWasCreated(Era era) throws Exception {
    McpClient client = connect(era);
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    List<TaskSnapshot> statuses = new CopyOnWriteArrayList<>();

    TaskHandle task =
        client.callToolAsTask(
            "steps",
            null,
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build(),
            statuses::add);
    assertThat(task.hasTask()).isTrue();
    created.countDown();

    assertThat(task.await().firstText()).isEqualTo("hello Ada");
    assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 3.0);
    assertThat(task.progressRecord().orElseThrow().terminal())
        .isEqualTo(ProgressRecord.Terminal.RESPONSE);
    eventually(() -> statuses.getLast().terminal(), "the terminal status");
    assertThat(statuses.getFirst().status()).isEqualTo(TaskStatus.WORKING);
    assertThat(statuses.getLast().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(client.getTask(task.taskId()).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @ParameterizedTest
  @EnumSource(Era.class)
  void aTaskWhoseClockRunsOutIsCancelledOnTheServer(Era era) throws Exception {
    McpClient client = connect(era);

    // the clock starts as the request leaves, so it must outlast the task's creation even on a
    // busy machine: a clock that ran out before the task existed fails callToolAsTask instead
    TaskHandle task =
        client.callToolAsTask(
            "hang", null, CallOptions.builder().timeout(Duration.ofSeconds(3)).build(), null);

    assertThatThrownBy(task::await).isInstanceOf(TimeoutException.class);
    eventually(handlerCancelled::get, "the handler's token tripped by tasks/cancel");
    assertThat(client.getTask(task.taskId()).status()).isEqualTo(TaskStatus.CANCELLED);
  }
}
