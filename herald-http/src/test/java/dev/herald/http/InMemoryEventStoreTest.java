package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.contract.EventStoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The default event store: the {@link EventStoreContract}, and its four bounds on a clock the test
 * drives.
 */
class InMemoryEventStoreTest extends EventStoreContract {
  private final AtomicLong now = new AtomicLong();
  private final InMemoryEventStore store =
      new InMemoryEventStore(100, 1_000, 2_000, Duration.ofMinutes(5), now::get);

  @Override
  protected EventStore newStore(int eventsPerStream, long bytesPerStream) {
    return new InMemoryEventStore(
        eventsPerStream,
        bytesPerStream,
        EventStore.DEFAULT_BYTES_PER_SERVER,
        Duration.ofMinutes(5),
        System::nanoTime);
  }

  private static byte[] bytes(int n) {
    return new byte[n];
  }

  private List<Long> kept(String session, String stream, long after) {
    List<Long> seqs = new ArrayList<>();
    store.replay(session, stream, after, (s, m) -> seqs.add(s));
    return seqs;
  }

  @Test
  void theStoresByteBoundForgetsTheOldestEventOfAnyStreamFirst() {
    store.append("a", "1", 1, bytes(404)); // 500 with overhead
    store.append("b", "1", 1, bytes(404));
    store.append("a", "1", 2, bytes(404));
    store.append("b", "1", 2, bytes(404));
    assertThat(store.bytesHeld()).isEqualTo(2_000);
    store.append("c", "1", 1, bytes(404));
    assertThat(store.bytesHeld()).isEqualTo(2_000);
    assertThat(kept("a", "1", 0)).containsExactly(2L);
    assertThat(store.replay("a", "1", 0, (s, m) -> {})).as("a's event 1 was forgotten").isFalse();
    assertThat(store.replay("a", "1", 1, (s, m) -> {})).isTrue();
    assertThat(kept("b", "1", 0)).containsExactly(1L, 2L);
  }

  @Test
  void aStreamsByteBoundForgetsItsOwnOldestAndAnEventLargerThanTheBoundIsNotKept() {
    store.append("a", "1", 1, bytes(304));
    store.append("a", "1", 2, bytes(304));
    store.append("a", "1", 3, bytes(304));
    assertThat(kept("a", "1", 0)).containsExactly(2L, 3L);
    store.append("a", "1", 4, bytes(5_000));
    assertThat(kept("a", "1", 0)).containsExactly(2L, 3L);
    assertThat(store.replay("a", "1", 3, (s, m) -> {})).as("event 4 was never kept").isFalse();
    assertThat(store.bytesHeld()).isEqualTo(800);
  }

  @Test
  void eventsOlderThanTheAgeBoundAreForgotten() {
    store.append("a", "1", 1, bytes(10));
    now.addAndGet(Duration.ofMinutes(3).toNanos());
    store.append("a", "2", 1, bytes(10));
    now.addAndGet(Duration.ofMinutes(3).toNanos());
    assertThat(kept("a", "1", 0)).isEmpty();
    assertThat(kept("a", "2", 0)).containsExactly(1L);
    assertThat(store.bytesHeld()).isEqualTo(10 + InMemoryEventStore.OVERHEAD_BYTES);
  }

  @Test
  void endingASessionGivesBackAllItsBytesAndManyForgottenEventsDoNotAccumulate() {
    for (int i = 1; i <= 10_000; i++) {
      store.append("a", "1", i, bytes(4));
    }
    assertThat(kept("a", "1", 0)).hasSize(10); // 100 bytes each with overhead, 1,000 per stream
    store.removeSession("a");
    assertThat(store.bytesHeld()).isZero();
    assertThat(kept("a", "1", 0)).isEmpty();
  }

  @Test
  void appendsThroughAStreamsHandleInterleavedWithOtherStreamsAreKeptAndReplayedInOrder() {
    Object a = null;
    Object b = null;
    for (int i = 1; i <= 3; i++) {
      a = store.append(a, "s1", "1", i, bytes(4));
      b = store.append(b, "s2", "1", i, bytes(4));
    }
    store.append("s1", "1", 4, bytes(4)); // the plain append reaches the same stream
    a = store.append(a, "s1", "1", 5, bytes(4));
    assertThat(kept("s1", "1", 0)).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(kept("s2", "1", 1)).containsExactly(2L, 3L);
    assertThat(store.bytesHeld()).isEqualTo(8 * (4 + InMemoryEventStore.OVERHEAD_BYTES));
  }

  @Test
  void aHandleWhoseStreamOrSessionWasRemovedIsNotUsedAndItsNextEventsAreKeptAgain() {
    Object a = store.append(null, "s1", "1", 1, bytes(4));
    store.removeStream("s1", "1");
    a = store.append(a, "s1", "1", 2, bytes(4));
    assertThat(kept("s1", "1", 0)).containsExactly(2L);
    store.removeSession("s1");
    assertThat(store.bytesHeld()).isZero();
    store.append(a, "s1", "1", 3, bytes(4));
    assertThat(kept("s1", "1", 0)).containsExactly(3L);
    store.removeSession("s1");
    assertThat(store.bytesHeld()).isZero(); // nothing left behind in a ring the store forgot
  }
}
