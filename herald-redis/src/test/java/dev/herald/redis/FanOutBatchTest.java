package dev.herald.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.EventStore;
import dev.herald.http.internal.BatchAppends;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server-wide fan-out in a cluster stores its sessions' events in batches (docs/scale-out.md,
 * "Fan-out: exactly once per session"), on a real redis-server: each session gets one numbered
 * event, stored under that number before it was written, resumable once on another node; a batch
 * that Redis cannot take leaves a gap that a resumption is refused over; writers racing a fan-out
 * keep each stream's events in order, once.
 */
class FanOutBatchTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** More sessions than one batch holds, so a fan-out spans several. */
  private static final int SESSIONS = 300;

  private RedisProcess redis;
  private final List<Node> nodes = new ArrayList<>();

  /** A node whose list changes and logs go out at once, for many sessions from one address. */
  static final class Node extends HttpNode {
    Node(String redisUri) {
      super(
          McpServer.builder()
              .listChangedDebounce(Duration.ZERO)
              .logRateLimit(1_000_000, 1_000_000)
              .tool(Tool.builder("quiet").build(), call -> CallToolResult.text("ok"))
              .build(),
          redisUri,
          b -> b.maxSessionsPerClient(SESSIONS + 10));
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    nodes.add(new Node(redis.uri()));
    nodes.add(new Node(redis.uri()));
  }

  @AfterEach
  void stop() {
    nodes.forEach(Node::close);
    redis.close();
  }

  @Test
  void aListChangeToMoreSessionsThanABatchStoresOneNumberedEventPerSessionResumableOnce()
      throws Exception {
    Node home = nodes.get(1);
    RawHttpClient c = home.client(null);
    Map<String, SseReader> streams = new LinkedHashMap<>();
    Map<String, String> priming = new LinkedHashMap<>();
    try {
      for (int s = 0; s < SESSIONS; s++) {
        c.session = null;
        String session = c.initialize();
        SseReader r = c.get(null);
        SseReader.Event first = r.next(WAIT);
        assertThat(first).isNotNull();
        assertThat(first.priming()).isTrue();
        streams.put(session, r);
        priming.put(session, first.id());
      }
      // made on the other node: every node hears it and tells the sessions it is home to
      nodes.get(0).mcp.addTool(Tool.builder("added").build(), call -> CallToolResult.text("a"));

      EventStore store = home.cluster.stores().eventStore();
      assertThat(store).isInstanceOf(BatchAppends.class);
      Map<String, String> told = new LinkedHashMap<>();
      for (Map.Entry<String, SseReader> e : streams.entrySet()) {
        SseReader.Event ev = e.getValue().next(WAIT);
        assertThat(ev).isNotNull();
        assertThat(ev.data()).contains("notifications/tools/list_changed");
        told.put(e.getKey(), ev.id());
        // stored under the number the client saw, once
        String[] id = ev.id().split("_");
        List<String> kept = new ArrayList<>();
        assertThat(
                store.replay(
                    e.getKey(),
                    id[0],
                    0,
                    (seq, m) -> kept.add(seq + " " + new String(m, StandardCharsets.UTF_8))))
            .isTrue();
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0)).startsWith(id[1] + " ").contains("tools/list_changed");
      }
      assertThat(new HashSet<>(told.values())).hasSize(SESSIONS);

      // A second change: the next event of each stream is the second one, not the first again.
      nodes.get(0).mcp.addTool(Tool.builder("again").build(), call -> CallToolResult.text("a"));
      for (Map.Entry<String, SseReader> e : streams.entrySet()) {
        SseReader.Event ev = e.getValue().next(WAIT);
        assertThat(ev).isNotNull();
        assertThat(ev.data()).contains("notifications/tools/list_changed");
        assertThat(seq(ev.id())).isEqualTo(seq(told.get(e.getKey())) + 1);
      }

      // Resumed on the other node from before the first change: both changes, once each, in order.
      RawHttpClient other = nodes.get(0).client(null);
      int resumed = 0;
      for (String session : List.copyOf(streams.keySet()).subList(0, 10)) {
        streams.remove(session).close();
        other.session = session;
        try (SseReader r = other.get(priming.get(session))) {
          List<String> ids = new ArrayList<>();
          while (ids.size() < 2) {
            SseReader.Event ev = r.next(WAIT);
            assertThat(ev).isNotNull();
            if (!ev.data().isBlank()) {
              assertThat(ev.data()).contains("notifications/tools/list_changed");
              ids.add(ev.id());
            }
          }
          assertThat(ids.get(0)).isEqualTo(told.get(session));
          assertThat(seq(ids.get(1))).isEqualTo(seq(ids.get(0)) + 1);
        }
        resumed++;
      }
      assertThat(resumed).isEqualTo(10);
    } finally {
      streams.values().forEach(SseReader::close);
    }
  }

  @Test
  void writersRacingAFanOutKeepEachStreamsEventsInOrderAndOnce() throws Exception {
    Node home = nodes.get(1);
    RawHttpClient c = home.client(null);
    List<SseReader> streams = new ArrayList<>();
    int sessions = 40;
    int threads = 4;
    int logsPerThread = 25;
    try {
      for (int s = 0; s < sessions; s++) {
        c.session = null;
        c.initialize();
        streams.add(c.get(null));
      }
      CountDownLatch go = new CountDownLatch(1);
      try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          done.add(
              pool.submit(() -> {
                go.await();
                for (int i = 0; i < logsPerThread; i++) {
                  // each node tells its own sessions: half of these start on the other node
                  nodes.get(i % 2).mcp.log(LoggingLevel.WARNING, "race", "m-" + thread + "-" + i);
                  if (i % 5 == 0) {
                    home.mcp.addTool(
                        Tool.builder("t-" + thread + "-" + i).build(),
                        call -> CallToolResult.text("t"));
                  }
                }
                return null;
              }));
        }
        go.countDown();
        for (Future<?> f : done) {
          f.get();
        }
      }
      for (SseReader r : streams) {
        Set<String> logs = new HashSet<>();
        long last = 0;
        while (logs.size() < threads * logsPerThread) {
          SseReader.Event ev = r.next(WAIT);
          assertThat(ev).as("logs so far: %d", logs.size()).isNotNull();
          if (ev.id() == null || ev.data().isBlank()) {
            continue;
          }
          assertThat(seq(ev.id())).as("event ids grow").isGreaterThan(last);
          last = seq(ev.id());
          String data = ev.data();
          if (data.contains("notifications/message")) {
            int at = data.indexOf("\"m-");
            String marker = data.substring(at + 1, data.indexOf('"', at + 1));
            assertThat(logs.add(marker)).as("log %s once", marker).isTrue();
          }
        }
      }
    } finally {
      streams.forEach(SseReader::close);
    }
  }

  @Test
  void aBatchRedisCannotTakeLeavesAGapThatAResumptionIsRefusedOver() throws Exception {
    try (Redis r = Redis.connect(RedisURI.create(redis.uri()), "batch:", Duration.ofSeconds(2))) {
      RedisEventStore store = new RedisEventStore(r, 100, 1 << 20, Duration.ofMinutes(5));
      List<BatchAppends.Event> events = new ArrayList<>();
      for (int s = 0; s < 50; s++) {
        for (long seq = 1; seq <= 3; seq++) {
          events.add(new BatchAppends.Event("s" + s, "7", seq, json("e" + seq)));
        }
      }
      assertThat(store.appendAll(events)).isEmpty();
      for (int s = 0; s < 50; s++) {
        List<Long> seen = new ArrayList<>();
        assertThat(store.replay("s" + s, "7", 0, (seq, m) -> seen.add(seq))).isTrue();
        assertThat(seen).containsExactly(1L, 2L, 3L);
      }

      redis.stop();
      List<BatchAppends.Event> lost = List.of(event("s0", 4), event("s1", 4));
      Map<Integer, RuntimeException> failed = store.appendAll(lost);
      assertThat(failed).containsOnlyKeys(0, 1);
      assertThat(failed.get(0)).isInstanceOf(RedisUnavailableException.class);

      redis.restart(); // empty: the next append of s0 records event 4 as forgotten
      dev.herald.testing.Eventually.eventually(
          WAIT,
          () -> {
            try {
              return "PONG".equals(r.sync().ping());
            } catch (RuntimeException e) {
              return false;
            }
          },
          "Redis answers again");
      assertThat(store.appendAll(List.of(event("s0", 5)))).isEmpty();
      assertThat(store.replay("s0", "7", 3, (seq, m) -> {})).as("resuming over event 4").isFalse();
      List<Long> after = new ArrayList<>();
      assertThat(store.replay("s0", "7", 4, (seq, m) -> after.add(seq))).isTrue();
      assertThat(after).containsExactly(5L);
    }
  }

  private static BatchAppends.Event event(String session, long seq) {
    return new BatchAppends.Event(session, "7", seq, json("e" + seq));
  }

  private static byte[] json(String text) {
    return ("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"" + text + "\"}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static long seq(String eventId) {
    return Long.parseLong(eventId.substring(eventId.indexOf('_') + 1));
  }
}
