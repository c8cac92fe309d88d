package dev.herald.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  @Test
  void advanceRunsDueTasksInDeadlineOrderOnTheCallersThreadAtTheirOwnTime() {
    ManualClock clock = new ManualClock();
    List<String> ran = new CopyOnWriteArrayList<>();
    Thread caller = Thread.currentThread();
    clock.schedule(() -> ran.add("c@" + clock.nanos()), 30);
    clock.schedule(() -> ran.add("a@" + clock.nanos()), 10);
    clock.schedule(() -> ran.add("b1@" + clock.nanos()), 20);
    clock.schedule(
        () ->
            ran.add("b2@" + clock.nanos() + (Thread.currentThread() == caller ? "" : " elsewhere")),
        20);
    clock.schedule(() -> ran.add("late"), 31);

    clock.advance(Duration.ofNanos(30));

    assertThat(ran).containsExactly("a@10", "b1@20", "b2@20", "c@30");
    assertThat(clock.nanos()).isEqualTo(30);
    assertThat(clock.scheduledCount()).isEqualTo(1);
  }

  @Test
  void aCancelledTaskNeverRuns() {
    ManualClock clock = new ManualClock();
    List<String> ran = new CopyOnWriteArrayList<>();
    Scheduler.Cancellable handle = clock.schedule(() -> ran.add("cancelled"), 5);
    clock.schedule(() -> ran.add("kept"), 5);

    handle.cancel();
    clock.advanceMillis(1);

    assertThat(ran).containsExactly("kept");
    assertThat(clock.scheduledCount()).isZero();
  }

  @Test
  void aTaskScheduledByARunningTaskRunsInTheSameAdvanceWhenItFallsDue() {
    ManualClock clock = new ManualClock();
    List<Long> ran = new CopyOnWriteArrayList<>();
    clock.schedule(
        () -> {
          ran.add(clock.nanos());
          clock.schedule(() -> ran.add(clock.nanos()), 50);
          clock.schedule(() -> ran.add(clock.nanos()), 500);
        },
        100);

    clock.advance(Duration.ofNanos(200));

    assertThat(ran).containsExactly(100L, 150L);
    assertThat(clock.nanos()).isEqualTo(200);
    clock.advance(Duration.ofNanos(400));
    assertThat(ran).containsExactly(100L, 150L, 600L);
  }
}
