package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request's SSE stream resumed with {@code Last-Event-ID} on another node than the one running
 * the request (docs/scale-out.md, "Resuming on another node"), on a real redis-server: the events
 * the client missed come from the Redis event store, then the producer's live events follow, each
 * once and in order; a producer that died ends the stream with a JSON-RPC error response; a node
 * dropping its copy of a session keeps the shared events, and {@code DELETE} removes them; an
 * event Redis could not keep still reaches the open connection, and a resumption from before it
 * is refused.
 */
class ResumeAcrossNodesTest {
  private RedisProcess redis;
  private final List<Node> nodes = new ArrayList<>();

  static final class Node {
    final McpServer mcp;
    final RedisCluster cluster;
    final McpHttpServer http;

    /** Released once per call of {@code gated}, between its third and fourth progress. */
    final Semaphore gate = new Semaphore(0);

    Node(String name, String redisUri) {
      mcp =
          McpServer.builder()
              .progressInterval(Duration.ZERO)
              .tool(
                  Tool.builder("gated").build(),
                  call -> {
                    for (int i = 1; i <= 6; i++) {
                      if (i == 4) {
                        try {
                          gate.acquire();
                        } catch (InterruptedException e) {
                          return CallToolResult.text("interrupted");
                        }
                      }
                      call.context().progress().report(i, 6.0, null);
                    }
                    return CallToolResult.text("gated on " + name);
                  })
              .build();
      // the default heartbeat (6 s): with a short one, a node's beat delayed on a busy machine
      // reads as a dead producer and ends a healthy stream; the one test of a stopped node waits
      // the 6 s out
      cluster = RedisCluster.connect(RedisStores.builder(redisUri).build());
      http = cluster.apply(McpHttpServer.builder().server(mcp)).build().start();
    }

    RawHttpClient client(@Nullable String session) {
      RawHttpClient c = new RawHttpClient(http.uri());
      c.session = session;
      return c;
    }

    void close() {
      gate.release(100);
      http.close();
      cluster.close();
      mcp.close();
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    for (int i = 0; i < 3; i++) {
      nodes.add(new Node("n" + i, redis.uri()));
    }
  }

  @AfterEach
  void stop() {
    nodes.forEach(Node::close);
    redis.close();
  }

  private Node n(int i) {
    return nodes.get(i);
  }

  /** The next event that is not a priming event. */
  private static SseReader.Event next(SseReader r) throws InterruptedException {
    while (true) {
      SseReader.Event e = r.next(Duration.ofSeconds(30));
      if (e == null) {
        throw new AssertionError("the stream ended early");
      }
      if (!e.priming()) {
        return e;
      }
    }
  }

  /** Descriptions of every event until the stream ends (priming events left out). */
  private static List<String> rest(SseReader r) throws InterruptedException {
    List<String> out = new ArrayList<>();
    for (SseReader.Event e; (e = r.next(Duration.ofSeconds(30))) != null; ) {
      if (!e.priming()) {
        out.add(RawHttpClient.describe(e.json()));
      }
    }
    return out;
  }

  /** Starts {@code gated} on {@code node} and reads its first two progress events; their ids. */
  private static List<String> startGated(Node node, String session, SseReader[] held)
      throws Exception {
    HttpResponse<Stream<String>> r = node.client(session).call(5, "gated", "tok");
    assertThat(r.statusCode()).isEqualTo(200);
    SseReader post = new SseReader(r.body());
    held[0] = post;
    SseReader.Event first = next(post);
    SseReader.Event second = next(post);
    assertThat(RawHttpClient.describe(first.json())).isEqualTo("progress tok 1");
    assertThat(RawHttpClient.describe(second.json())).isEqualTo("progress tok 2");
    return List.of(first.id(), second.id());
  }

  @Test
  void aStreamResumedOnAnotherNodeGetsWhatItMissedThenFollowsItsProducerToTheResponse()
      throws Exception {
    String session = n(0).client(null).initialize();
    SseReader[] post = new SseReader[1];
    List<String> ids = startGated(n(0), session, post);
    post[0].close(); // the connection drops after event 2; event 3 is produced meanwhile
    try (SseReader resumed = n(1).client(session).get(ids.get(1))) {
      assertThat(RawHttpClient.describe(next(resumed).json())).isEqualTo("progress tok 3");
      n(0).gate.release();
      assertThat(rest(resumed))
          .containsExactly(
              "progress tok 4", "progress tok 5", "progress tok 6", "result 5 gated on n0");
    }
    // resumed again, on a third node, from the first event: the whole stream, from the store
    try (SseReader again = n(2).client(session).get(ids.get(0))) {
      assertThat(rest(again))
          .containsExactly(
              "progress tok 2",
              "progress tok 3",
              "progress tok 4",
              "progress tok 5",
              "progress tok 6",
              "result 5 gated on n0");
    }
  }

  @Test
  void aStreamResumedAgainOnAThirdNodeWhileItRunsIsFollowedThereOnly() throws Exception {
    String session = n(0).client(null).initialize();
    SseReader[] post = new SseReader[1];
    List<String> ids = startGated(n(0), session, post);
    post[0].close();
    try (SseReader onN1 = n(1).client(session).get(ids.get(1))) {
      assertThat(RawHttpClient.describe(next(onN1).json())).isEqualTo("progress tok 3");
    } // dropped again; n1 still follows the stream until the client resumes elsewhere
    try (SseReader onN2 = n(2).client(session).get(ids.get(1))) {
      assertThat(RawHttpClient.describe(next(onN2).json())).isEqualTo("progress tok 3");
      n(0).gate.release();
      assertThat(rest(onN2))
          .containsExactly(
              "progress tok 4", "progress tok 5", "progress tok 6", "result 5 gated on n0");
    }
    // n1 gave the stream up: resumed there now, it is replayed from the store to its end
    try (SseReader again = n(1).client(session).get(ids.get(1))) {
      assertThat(rest(again))
          .containsExactly(
              "progress tok 3",
              "progress tok 4",
              "progress tok 5",
              "progress tok 6",
              "result 5 gated on n0");
    }
  }

  @Test
  void aStreamResumedOnAnotherNodeWhileItsProducerStopsEndsWithAnErrorResponse() throws Exception {
    String session = n(0).client(null).initialize();
    SseReader[] post = new SseReader[1];
    List<String> ids = startGated(n(0), session, post);
    try (SseReader resumed = n(1).client(session).get(ids.get(1))) {
      assertThat(RawHttpClient.describe(next(resumed).json())).isEqualTo("progress tok 3");
      // n0's heartbeat runs out, as a crashed node's does (its handler never answers)
      n(0).cluster.stores().node().stopBeating();
      List<String> rest = rest(resumed);
      assertThat(rest).containsExactly("error 5 -32603");
    } finally {
      post[0].close();
    }
    // a later resumption on a third node replays the same end
    try (SseReader again = n(2).client(session).get(ids.get(1))) {
      assertThat(rest(again)).containsExactly("progress tok 3", "error 5 -32603");
    }
  }

  @Test
  void aGetOpenedOnAnotherNodeTakesTheStandingStreamOverAndTheOldOneEnds() throws Exception {
    String session = n(0).client(null).initialize();
    try (SseReader first = n(0).client(session).get(null);
        SseReader second = n(1).client(session).get(null)) {
      assertThat(rest(first)).as("the previous standing stream ends, carrying nothing").isEmpty();
      n(2).mcp.log(LoggingLevel.WARNING, "cluster", "after");
      n(0).mcp.log(LoggingLevel.WARNING, "cluster", "again");
      // made on two nodes, so in either order; each once
      assertThat(
              List.of(
                  RawHttpClient.describe(next(second).json()),
                  RawHttpClient.describe(next(second).json())))
          .containsExactlyInAnyOrder("log after", "log again");
      n(2).mcp.log(LoggingLevel.WARNING, "cluster", "last");
      assertThat(RawHttpClient.describe(next(second).json())).isEqualTo("log last");
    }
  }

  @Test
  void aStandingStreamResumedOnAnotherNodeReplaysWhatWasMissedThenThatNodeCarriesOn()
      throws Exception {
    String session = n(0).client(null).initialize();
    String first;
    try (SseReader standing = n(0).client(session).get(null)) {
      n(0).mcp.log(LoggingLevel.WARNING, "cluster", "one");
      n(0).mcp.log(LoggingLevel.WARNING, "cluster", "two");
      SseReader.Event one = next(standing);
      assertThat(RawHttpClient.describe(one.json())).isEqualTo("log one");
      assertThat(RawHttpClient.describe(next(standing).json())).isEqualTo("log two");
      first = one.id();
    } // the client lost its connection after "one" (it resumes from there)
    String stream = first.substring(0, first.indexOf('_'));
    long after = Long.parseLong(first.substring(first.indexOf('_') + 1));
    n(2).mcp.log(LoggingLevel.WARNING, "cluster", "three"); // kept on n0's standing stream
    try (RedisStores reader = RedisStores.connect(redis.uri())) {
      eventually(
          Duration.ofSeconds(30),
          () -> {
            List<Long> kept = new ArrayList<>();
            reader.eventStore().replay(session, stream, after, (seq, json) -> kept.add(seq));
            return kept.size() == 2;
          },
          "n0 kept \"three\" for the session's standing stream");
    }
    try (SseReader resumed = n(1).client(session).get(first)) {
      SseReader.Event two = next(resumed);
      SseReader.Event three = next(resumed);
      assertThat(RawHttpClient.describe(two.json())).isEqualTo("log two");
      assertThat(RawHttpClient.describe(three.json())).isEqualTo("log three");
      assertThat(List.of(two.id(), three.id())).allMatch(id -> id.startsWith(stream + "_"));
      // n1 holds the standing stream now: a later message arrives here, once
      n(2).mcp.log(LoggingLevel.WARNING, "cluster", "four");
      n(0).mcp.log(LoggingLevel.WARNING, "cluster", "five");
      assertThat(
              List.of(
                  RawHttpClient.describe(next(resumed).json()),
                  RawHttpClient.describe(next(resumed).json())))
          .containsExactlyInAnyOrder("log four", "log five");
    }
  }

  @Test
  void aNodeDroppingItsCopyOfASessionKeepsTheSharedEventsAndDeleteRemovesThem() throws Exception {
    String session = n(0).client(null).initialize();
    SseReader[] post = new SseReader[1];
    List<String> ids = startGated(n(1), session, post);
    n(1).gate.release();
    assertThat(rest(post[0]))
        .containsExactly(
            "progress tok 3",
            "progress tok 4",
            "progress tok 5",
            "progress tok 6",
            "result 5 gated on n1");
    n(1).http.close(); // n1 leaves: its copy of the session ends there only
    try (SseReader replayed = n(2).client(session).get(ids.get(0))) {
      assertThat(rest(replayed))
          .containsExactly(
              "progress tok 2",
              "progress tok 3",
              "progress tok 4",
              "progress tok 5",
              "progress tok 6",
              "result 5 gated on n1");
    }
    String stream = ids.get(0).substring(0, ids.get(0).indexOf('_'));
    HttpResponse<String> deleted =
        n(0).client(session).sendForString(n(0).client(session).request().DELETE());
    assertThat(deleted.statusCode()).isEqualTo(200);
    try (RedisStores reader = RedisStores.connect(redis.uri())) {
      List<Long> left = new ArrayList<>();
      reader.eventStore().replay(session, stream, -1, (seq, json) -> left.add(seq));
      assertThat(left).isEmpty();
    }
  }

  @Test
  void anEventRedisCouldNotKeepStillReachesTheConnectionAndAResumptionFromBeforeItIsRefused()
      throws Exception {
    String session = n(0).client(null).initialize();
    SseReader[] post = new SseReader[1];
    List<String> ids = startGated(n(0), session, post);
    assertThat(RawHttpClient.describe(next(post[0]).json())).isEqualTo("progress tok 3");
    redis.stop();
    n(0).gate.release();
    assertThat(rest(post[0]))
        .containsExactly(
            "progress tok 4", "progress tok 5", "progress tok 6", "result 5 gated on n0");
    HttpResponse<Stream<String>> away = n(0).client(session).getResponse(ids.get(1));
    assertThat(away.statusCode()).isEqualTo(503);
    RawHttpClient.body(away);
    redis.restart();
    eventually(
        Duration.ofSeconds(30),
        () -> resumeStatus(n(0), session, ids.get(1)) == 400,
        "a resumption from before the unstored events is refused once Redis is back");
  }

  private static int resumeStatus(Node node, String session, String lastEventId) {
    try {
      HttpResponse<Stream<String>> r = node.client(session).getResponse(lastEventId);
      RawHttpClient.body(r);
      return r.statusCode();
    } catch (Exception e) {
      return -1;
    }
  }
}
