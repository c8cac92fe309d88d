package dev.herald.http.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.EventStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link EventStore} contract as tests, through the public interface only: every store extends
 * this class, says how to make a fresh, empty store, and runs the same body (replay after a
 * position with gaps in the numbering, per-stream isolation, the count and byte bounds with the
 * gap they leave, removal). Age bounds depend on a clock and are each store's own tests.
 *
 * <p>Another module gets this class from herald-http's test jar ({@code <type>test-jar</type>},
 * test scope) next to JUnit Jupiter and AssertJ. The package is not part of herald-http's module:
 * on a module path, open it to JUnit as herald-http's own Surefire configuration does.
 *
 * {@snippet :
 * class RedisEventStoreTest extends EventStoreContract {
 *   @Override
 *   protected EventStore newStore(int eventsPerStream, long bytesPerStream) {
 *     return new RedisEventStore(redis, eventsPerStream, bytesPerStream, Duration.ofMinutes(5));
 *   }
 * }
 * }
 */
public abstract class EventStoreContract {

  /**
   * A fresh, empty store keeping at most {@code eventsPerStream} events and {@code bytesPerStream}
   * bytes per stream (each event costing its message plus a fixed overhead below 512 bytes), for
   * at least a minute.
   */
  protected abstract EventStore newStore(int eventsPerStream, long bytesPerStream);

  protected EventStore store() {
    return newStore(100, 1024 * 1024);
  }

  protected static byte[] json(String text) {
    return ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\""
            + text
            + "\"}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** What a replay delivers, as "seq=text" strings. */
  protected static List<String> replayed(EventStore s, String session, String stream, long after) {
    List<String> out = new ArrayList<>();
    s.replay(session, stream, after, (seq, m) -> out.add(seq + "=" + text(m)));
    return out;
  }

  private static String text(byte[] m) {
    String all = new String(m, StandardCharsets.UTF_8);
    int at = all.indexOf("\"data\":\"");
    return at < 0 ? all : all.substring(at + 8, all.indexOf('"', at + 8));
  }

  private static boolean complete(EventStore s, String session, String stream, long after) {
    return s.replay(session, stream, after, (seq, m) -> {});
  }

  @Test
  public void aReplayReturnsTheEventsAfterThePositionOldestFirst() {
    EventStore s = store();
    for (int i = 1; i <= 5; i++) {
      s.append("s1", "r1", i, json("e" + i));
    }
    assertThat(replayed(s, "s1", "r1", 2)).containsExactly("3=e3", "4=e4", "5=e5");
    assertThat(replayed(s, "s1", "r1", 0)).containsExactly("1=e1", "2=e2", "3=e3", "4=e4", "5=e5");
    assertThat(replayed(s, "s1", "r1", 5)).isEmpty();
    assertThat(complete(s, "s1", "r1", 2)).isTrue();
  }

  @Test
  public void gapsInTheNumberingAreNotGapsInTheReplay() {
    EventStore s = store();
    for (long seq : new long[] {1, 2, 5, 9, 10}) {
      s.append("s1", "r1", seq, json("e" + seq));
    }
    assertThat(replayed(s, "s1", "r1", 2)).containsExactly("5=e5", "9=e9", "10=e10");
    assertThat(replayed(s, "s1", "r1", 3)).containsExactly("5=e5", "9=e9", "10=e10");
    assertThat(replayed(s, "s1", "r1", 9)).containsExactly("10=e10");
    assertThat(complete(s, "s1", "r1", 3)).isTrue();
  }

  @Test
  public void theMessageComesBackByteForByte() {
    EventStore s = store();
    byte[] m = json("caf\u00e9 \u2603 \\\"quoted\\\" \ud83d\ude00");
    s.append("s1", "r1", 1, m);
    List<byte[]> back = new ArrayList<>();
    s.replay("s1", "r1", 0, (seq, b) -> back.add(b));
    assertThat(back).hasSize(1);
    assertThat(back.getFirst()).isEqualTo(m);
  }

  @Test
  public void anUnknownStreamReplaysNothingAndHasNoGap() {
    EventStore s = store();
    s.append("s1", "r1", 1, json("x"));
    assertThat(replayed(s, "s1", "r2", 0)).isEmpty();
    assertThat(replayed(s, "s2", "r1", 0)).isEmpty();
    assertThat(complete(s, "s1", "r2", 0)).isTrue();
  }

  @Test
  public void streamsAndSessionsNeverSeeEachOthersEvents() {
    EventStore s = store();
    s.append("s1", "r1", 1, json("s1r1"));
    s.append("s1", "r2", 1, json("s1r2"));
    s.append("s2", "r1", 1, json("s2r1"));
    s.append("s1:x", "r1", 1, json("colon-a"));
    s.append("s1", "x:r1", 1, json("colon-b"));
    assertThat(replayed(s, "s1", "r1", 0)).containsExactly("1=s1r1");
    assertThat(replayed(s, "s1", "r2", 0)).containsExactly("1=s1r2");
    assertThat(replayed(s, "s2", "r1", 0)).containsExactly("1=s2r1");
    assertThat(replayed(s, "s1:x", "r1", 0)).containsExactly("1=colon-a");
    assertThat(replayed(s, "s1", "x:r1", 0)).containsExactly("1=colon-b");
  }

  @Test
  public void theCountBoundForgetsTheOldestAndAReplayFromBeforeThemHasAGap() {
    EventStore s = newStore(3, 1024 * 1024);
    for (int i = 1; i <= 5; i++) {
      s.append("s1", "r1", i, json("e" + i));
    }
    assertThat(replayed(s, "s1", "r1", 0)).containsExactly("3=e3", "4=e4", "5=e5");
    assertThat(complete(s, "s1", "r1", 0)).as("events 1 and 2 were forgotten").isFalse();
    assertThat(complete(s, "s1", "r1", 1)).as("event 2 was forgotten").isFalse();
    assertThat(complete(s, "s1", "r1", 2)).isTrue();
    assertThat(replayed(s, "s1", "r1", 2)).containsExactly("3=e3", "4=e4", "5=e5");
  }

  @Test
  public void theByteBoundForgetsTheOldestAndAnEventLargerThanItIsNotKept() {
    EventStore s = newStore(100, 10_000);
    String big = "x".repeat(3_000);
    for (int i = 1; i <= 4; i++) {
      s.append("s1", "r1", i, json(big + i));
    }
    assertThat(replayed(s, "s1", "r1", 0)).hasSize(3);
    assertThat(complete(s, "s1", "r1", 1)).isTrue();
    s.append("s1", "r1", 5, json("y".repeat(20_000)));
    assertThat(replayed(s, "s1", "r1", 1)).hasSize(3);
    assertThat(complete(s, "s1", "r1", 4)).as("event 5 was never kept").isFalse();
    s.append("s1", "r1", 6, json("small"));
    assertThat(replayed(s, "s1", "r1", 5)).containsExactly("6=small");
    assertThat(complete(s, "s1", "r1", 5)).isTrue();
  }

  @Test
  public void oneStreamsBoundsDoNotTouchAnotherStream() {
    EventStore s = newStore(2, 1024 * 1024);
    s.append("s1", "r2", 1, json("keep"));
    for (int i = 1; i <= 10; i++) {
      s.append("s1", "r1", i, json("e" + i));
    }
    assertThat(replayed(s, "s1", "r2", 0)).containsExactly("1=keep");
    assertThat(complete(s, "s1", "r2", 0)).isTrue();
  }

  @Test
  public void removingAStreamForgetsOnlyThatStream() {
    EventStore s = store();
    s.append("s1", "r1", 1, json("a"));
    s.append("s1", "r2", 1, json("b"));
    s.removeStream("s1", "r1");
    assertThat(replayed(s, "s1", "r1", 0)).isEmpty();
    assertThat(replayed(s, "s1", "r2", 0)).containsExactly("1=b");
    s.removeStream("s1", "unknown");
    s.removeStream("unknown", "r1");
  }

  @Test
  public void removingASessionForgetsEveryStreamOfItAndNoOtherSession() {
    EventStore s = store();
    s.append("s1", "r1", 1, json("a"));
    s.append("s1", "r2", 1, json("b"));
    s.append("s2", "r1", 1, json("c"));
    s.removeSession("s1");
    assertThat(replayed(s, "s1", "r1", 0)).isEmpty();
    assertThat(replayed(s, "s1", "r2", 0)).isEmpty();
    assertThat(replayed(s, "s2", "r1", 0)).containsExactly("1=c");
    s.removeSession("s1");
    s.append("s1", "r1", 7, json("again"));
    assertThat(replayed(s, "s1", "r1", 0)).containsExactly("7=again");
  }

  @Test
  public void concurrentAppendsToDifferentStreamsAreAllKept() throws Exception {
    EventStore s = store();
    int threads = 4;
    int each = 50;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int k = 0; k < threads; k++) {
        String stream = "r" + k;
        fs.add(
            pool.submit(() -> {
              start.await();
              for (int i = 1; i <= each; i++) {
                s.append("s1", stream, i, json(stream + "-" + i));
              }
              return null;
            }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    for (int k = 0; k < threads; k++) {
      List<String> got = replayed(s, "s1", "r" + k, 0);
      assertThat(got).hasSize(each);
      assertThat(got.getLast()).isEqualTo(each + "=r" + k + "-" + each);
    }
  }
}
