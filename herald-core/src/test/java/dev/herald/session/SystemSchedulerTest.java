package dev.herald.session;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.server.McpServer;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared system scheduler gives a cancelled timer back at once: a call that ends long before
 * its timeout leaves nothing queued, while a call that runs out of time still times out. Its
 * thread holds Herald's own class loader, not that of whichever thread scheduled first.
 */
@Timeout(60)
class SystemSchedulerTest {
  /** A delay no other test uses, so that counting queued tasks beyond it counts only ours. */
  private static final Duration WEEK = Duration.ofDays(7);

  private static final long SIX_DAYS = TimeUnit.DAYS.toNanos(6);

  private static int queuedBeyondSixDays() {
    return Scheduler.SystemScheduler.INSTANCE.queuedLaterThan(SIX_DAYS);
  }

  @Test
  void theTimerThreadHoldsHeraldsClassLoaderNotTheSchedulingThreads() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    try (URLClassLoader webApp = new URLClassLoader(new URL[0], null)) {
      Thread scheduling =
          new Thread(() -> Scheduler.system().schedule(ran::countDown, 0), "container-thread");
      scheduling.setContextClassLoader(webApp);
      scheduling.start();
      scheduling.join();
      assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    }
    List<Thread> timers =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("herald-timer"))
            .toList();
    assertThat(timers).isNotEmpty();
    assertThat(timers)
        .allSatisfy(
            t -> assertThat(t.getContextClassLoader()).isSameAs(Scheduler.class.getClassLoader()));
  }

  @Test
  void aCancelledTimerLeavesTheQueueAtOnce() {
    List<Scheduler.Cancellable> timers = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      timers.add(Scheduler.system().schedule(() -> {}, WEEK.toNanos()));
    }
    assertThat(queuedBeyondSixDays()).isGreaterThanOrEqualTo(10_000);

    timers.forEach(Scheduler.Cancellable::cancel);

    assertThat(queuedBeyondSixDays()).isZero();
  }

  @Test
  void callsAnsweredLongBeforeTheirTimeoutLeaveNoTimerQueued() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    McpServer server =
        McpServer.builder()
            .tool(Tool.builder("echo").build(), call -> CallToolResult.text("echo"))
            .tool(
                Tool.builder("hold").build(),
                call -> {
                  release.await();
                  return CallToolResult.text("held");
                })
            .build();
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    try (McpClient client = McpClient.builder().info("timers", "1").connect(pair.client())) {
      CallOptions week = CallOptions.builder().timeout(WEEK).build();
      var held = client.callToolAsync("hold", null, week);
      eventually(() -> queuedBeyondSixDays() == 1, "the running call's timer is queued");

      for (int i = 0; i < 5_000; i++) {
        client.callTool("echo", null, week);
      }
      assertThat(queuedBeyondSixDays()).isEqualTo(1);

      release.countDown();
      assertThat(held.await().content()).isNotEmpty();
      eventually(() -> queuedBeyondSixDays() == 0, "no timer of an answered call is queued");
    }
  }

  @Test
  void aCallThatRunsOutOfTimeStillTimesOut() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("hold").build(),
                call -> {
                  release.await();
                  return CallToolResult.text("held");
                })
            .build();
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    try (McpClient client = McpClient.builder().info("timers", "1").connect(pair.client())) {
      assertThatThrownBy(() ->
              client.callTool(
                  "hold", null, CallOptions.builder().timeout(Duration.ofMillis(200)).build()))
          .isInstanceOf(TimeoutException.class);
    } finally {
      release.countDown();
    }
  }
}
