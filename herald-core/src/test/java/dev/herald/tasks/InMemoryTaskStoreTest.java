package dev.herald.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.tasks.contract.TaskStoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The store contract, and what the in-memory store promises beyond it. */
class InMemoryTaskStoreTest extends TaskStoreContract {

  @Override
  protected TaskStore newStore(int maxActivePerOwner, int maxTasks) {
    return new InMemoryTaskStore(maxActivePerOwner, maxTasks);
  }

  @Test
  void boundsMustBePositive() {
    assertThatThrownBy(() -> new InMemoryTaskStore(0, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new InMemoryTaskStore(10, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void expiredTasksNeverHoldASlotANewTaskNeeds() {
    TaskStore s = store(1, 2);
    s.create(task(ALICE, T0, Duration.ofSeconds(10)));
    s.create(task(BOB, T0, Duration.ofSeconds(10)));
    // no purge has run: creation at T0+10 s purges what expired by then
    s.create(task(ALICE, T0.plusSeconds(10), TTL));
    s.create(task(BOB, T0.plusSeconds(10), TTL));
    assertThat(s.size()).isEqualTo(2);
    assertThatThrownBy(() -> s.create(task(ALICE, T0.plusSeconds(11), TTL)))
        .isInstanceOf(TaskLimitExceededException.class);
  }

  @Test
  void aLoneThreadsChangeHasReachedEveryListenerWhenTheCallReturns() {
    TaskStore s = store();
    List<Long> heard = new CopyOnWriteArrayList<>();
    s.listen(t -> heard.add(t.version()));
    StoredTask t = task(ALICE);
    s.create(t);
    assertThat(heard).containsExactly(1L);
    s.update(t.taskId(), T0, x -> x.withMessage("half way", T0));
    assertThat(heard).containsExactly(1L, 2L);
  }

  @Test
  void aListenerThatChangesATaskHearsOfThatChangeAfterItReturnsInOrder() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    List<String> heard = new ArrayList<>();
    // the first listener answers every status message with the next one, up to three
    s.listen(x -> {
      heard.add("first v" + x.version());
      if (x.version() < 3) {
        s.update(x.taskId(), T0, y -> y.withMessage("m" + y.version(), T0));
        heard.add("first returns after v" + x.version());
      }
    });
    s.listen(x -> heard.add("second v" + x.version()));
    s.create(t);
    assertThat(heard)
        .containsExactly(
            "first v1",
            "first returns after v1",
            "second v1",
            "first v2",
            "first returns after v2",
            "second v2",
            "first v3",
            "second v3");
    assertThat(s.get(ALICE, t.taskId(), T0).orElseThrow().version()).isEqualTo(3);
  }

  @Test
  void aSlowListenerNeverHoldsUpAnotherThreadsChange() throws Exception {
    TaskStore s = store();
    StoredTask a = task(ALICE);
    StoredTask b = task(BOB);
    s.create(a);
    s.create(b);
    CountDownLatch inListener = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> heard = new CopyOnWriteArrayList<>();
    s.listen(t -> {
      heard.add(t.taskId() + " v" + t.version());
      if (t.taskId().equals(a.taskId())) {
        inListener.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    Thread slow = Thread.ofPlatform().start(() -> s.update(a.taskId(), T0, complete(T0)));
    try {
      inListener.await();
      // this thread's change returns at once; the thread in the slow listener delivers it after
      assertThat(s.update(b.taskId(), T0, complete(T0)).orElseThrow().changed()).isTrue();
      assertThat(heard).containsExactly(a.taskId() + " v2");
    } finally {
      release.countDown();
      slow.join();
    }
    assertThat(heard).containsExactly(a.taskId() + " v2", b.taskId() + " v2");
  }

  @Test
  void anIdleTaskSharesTheEmptyInputMap() {
    TaskStore s = store();
    StoredTask t = task(ALICE);
    s.create(t);
    assertThat(s.get(ALICE, t.taskId(), T0).orElseThrow().inputRequests()).isSameAs(Map.of());
  }
}
