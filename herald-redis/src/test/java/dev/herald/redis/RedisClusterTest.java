package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.ResourceHandler;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three in-process Herald nodes (each its own McpServer and Jetty server) joined by {@link
 * RedisCluster} on one real redis-server (docs/scale-out.md): a session's requests land on each
 * node in turn, list changes and resource updates reach each session once, logs follow each
 * session's level, and a cancellation reaches the node running the call.
 */
class RedisClusterTest {
  private static final String RESOURCE = "demo://watched";

  private RedisProcess redis;
  private final List<Node> nodes = new ArrayList<>();

  final class Node {
    final String name;
    final McpServer mcp;
    final RedisCluster cluster;
    final McpHttpServer http;
    final CountDownLatch holdStarted = new CountDownLatch(1);
    final AtomicBoolean holdCancelled = new AtomicBoolean();
    final CountDownLatch holdEnded = new CountDownLatch(1);

    Node(String name) {
      this.name = name;
      mcp =
          McpServer.builder()
              .progressInterval(Duration.ZERO)
              .listChangedDebounce(Duration.ZERO)
              .logRateLimit(100_000, 100_000)
              .resource(
                  Resource.of(RESOURCE, "watched", "text/plain"),
                  ResourceHandler.text("text/plain", () -> "v"))
              .tool(Tool.builder("quiet").build(), call -> CallToolResult.text("ok from " + name))
              .tool(
                  Tool.builder("steps").build(),
                  call -> {
                    for (int i = 1; i <= 5; i++) {
                      call.context().progress().report(i, 5.0, null);
                    }
                    return CallToolResult.text("stepped on " + name);
                  })
              .tool(
                  Tool.builder("levels").build(),
                  call -> {
                    for (LoggingLevel l :
                        List.of(LoggingLevel.DEBUG, LoggingLevel.INFO, LoggingLevel.WARNING)) {
                      call.context().log(l, "levels", l.wire());
                    }
                    return CallToolResult.text("logged");
                  })
              .tool(
                  Tool.builder("hold").build(),
                  call -> {
                    holdStarted.countDown();
                    try {
                      Thread.sleep(Duration.ofSeconds(60));
                    } catch (InterruptedException e) {
                      holdCancelled.set(call.context().cancellation().isCancelled());
                    } finally {
                      holdEnded.countDown();
                    }
                    return CallToolResult.text("held");
                  })
              .build();
      cluster = RedisCluster.connect(URI.create(redis.uri()));
      http = cluster.apply(McpHttpServer.builder().server(mcp)).build().start();
    }

    RawHttpClient client(@Nullable String session) {
      RawHttpClient c = new RawHttpClient(http.uri());
      c.session = session;
      return c;
    }

    void close() {
      http.close();
      cluster.close();
      mcp.close();
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    for (int i = 0; i < 3; i++) {
      nodes.add(new Node("n" + i));
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

  @Test
  void aSessionsRequestsLandOnEachNodeInTurn() throws Exception {
    String session = n(0).client(null).initialize();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<Stream<String>> r = n(i).client(session).call(10 * round + i, "quiet", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(RawHttpClient.body(r)).contains("ok from n" + i);
      }
    }
    HttpResponse<Stream<String>> unknown = n(2).client("unknown-session").call(99, "quiet", null);
    assertThat(unknown.statusCode()).isEqualTo(404);
    RawHttpClient.body(unknown);
  }

  @Test
  void aListChangeReachesEverySessionOnceWhicheverNodeHoldsItsStream() throws Exception {
    List<SseReader> streams = new ArrayList<>();
    try {
      for (int s = 0; s < 6; s++) {
        String session = n(s % 3).client(null).initialize();
        Node home = n((s + 1) % 3); // the stream on another node than the one that made it
        streams.add(home.client(session).get(null));
      }
      n(1).mcp.addTool(Tool.builder("added").build(), call -> CallToolResult.text("added"));
      n(2).mcp.log(LoggingLevel.WARNING, "cluster", "marker");
      for (SseReader r : streams) {
        assertThat(describeNext(r, 2))
            .containsExactlyInAnyOrder("notifications/tools/list_changed", "log marker");
      }
      n(0).mcp.log(LoggingLevel.WARNING, "cluster", "second marker");
      for (SseReader r : streams) {
        assertThat(describeNext(r, 1)).containsExactly("log second marker");
      }
    } finally {
      streams.forEach(SseReader::close);
    }
  }

  @Test
  void progressOfACallOnAnotherNodeThanTheStreamArrivesInOrderBeforeItsResponse() throws Exception {
    String session = n(0).client(null).initialize();
    try (SseReader standing = n(1).client(session).get(null)) {
      String body = RawHttpClient.body(n(2).client(session).call(3, "steps", "tok"));
      List<String> seen = new ArrayList<>();
      for (String line : body.split("\n")) {
        if (line.startsWith("data: {")) {
          seen.add(RawHttpClient.describe(RawHttpClient.json(line.substring(6))));
        }
      }
      assertThat(seen)
          .containsExactly(
              "progress tok 1",
              "progress tok 2",
              "progress tok 3",
              "progress tok 4",
              "progress tok 5",
              "result 3 stepped on n2");
    }
  }

  @Test
  void aCancellationArrivingAtAnotherNodeStopsTheHandler() throws Exception {
    String session = n(0).client(null).initialize();
    Thread call =
        Thread.ofVirtual()
            .start(() -> {
              try {
                RawHttpClient.body(n(0).client(session).call(7, "hold", null));
              } catch (Exception e) {
                // the stream ends without a response
              }
            });
    assertThat(n(0).holdStarted.await(30, TimeUnit.SECONDS)).isTrue();
    HttpResponse<Stream<String>> cancel =
        n(2).client(session)
            .post("{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':7}}");
    assertThat(cancel.statusCode()).isEqualTo(202);
    RawHttpClient.body(cancel);
    assertThat(n(0).holdEnded.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(n(0).holdCancelled).isTrue();
    call.join(Duration.ofSeconds(30));
  }

  @Test
  void logsFollowEachSessionsLevelSetOnAnyNode() throws Exception {
    String quiet = n(0).client(null).initialize();
    String chatty = n(1).client(null).initialize();
    HttpResponse<Stream<String>> set =
        n(2).client(quiet)
            .post(
                "{'jsonrpc':'2.0','id':1,'method':'logging/setLevel','params':{'level':'warning'}}");
    assertThat(set.statusCode()).isEqualTo(200);
    RawHttpClient.body(set);
    // Recorded before the answer; the copies already on other nodes follow through pub/sub, just
    // after (docs/scale-out.md, "Status"): n0 (which made it) and n2 hold one.
    eventually(
        () ->
            n(0).mcp.sessions().stream().allMatch(s -> s.logLevel() == LoggingLevel.WARNING)
                && n(2).mcp.sessions().stream().allMatch(s -> s.logLevel() == LoggingLevel.WARNING),
        "the copies of the quiet session follow its level");
    for (int i = 0; i < 3; i++) {
      String q = RawHttpClient.body(n(i).client(quiet).call(2 + i, "levels", null));
      assertThat(q).contains("\"data\":\"warning\"").doesNotContain("\"data\":\"info\"");
      String c = RawHttpClient.body(n(i).client(chatty).call(2 + i, "levels", null));
      assertThat(c).contains("\"data\":\"warning\"", "\"data\":\"info\"");
      assertThat(c).doesNotContain("\"data\":\"debug\"");
    }
  }

  @Test
  void aResourceUpdateReachesItsSubscribersOnly() throws Exception {
    String subscriber = n(0).client(null).initialize();
    String other = n(0).client(null).initialize();
    HttpResponse<Stream<String>> sub =
        n(1).client(subscriber)
            .post(
                "{'jsonrpc':'2.0','id':1,'method':'resources/subscribe','params':{'uri':'"
                    + RESOURCE
                    + "'}}");
    assertThat(sub.statusCode()).isEqualTo(200);
    RawHttpClient.body(sub);
    try (SseReader s = n(0).client(subscriber).get(null);
        SseReader o = n(2).client(other).get(null)) {
      n(2).mcp.notifyResourceUpdated(RESOURCE);
      n(1).mcp.log(LoggingLevel.WARNING, "cluster", "marker");
      assertThat(describeNext(s, 2))
          .containsExactlyInAnyOrder("notifications/resources/updated", "log marker");
      assertThat(describeNext(o, 1)).containsExactly("log marker");
    }
  }

  @Test
  void withRedisDownAnUnknownSessionIsAClear503AndAKnownOneIsStillServed() throws Exception {
    String session = n(0).client(null).initialize();
    String elsewhere = n(0).client(null).initialize();
    redis.stop();
    HttpResponse<Stream<String>> known = n(0).client(session).call(1, "quiet", null);
    assertThat(known.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.body(known)).contains("ok from n0");
    HttpResponse<Stream<String>> unknown = n(1).client(elsewhere).call(2, "quiet", null);
    assertThat(unknown.statusCode()).isEqualTo(503);
    assertThat(RawHttpClient.body(unknown)).contains("-32603");
    redis.restart();
    eventually(
        Duration.ofSeconds(30),
        () -> {
          try {
            HttpResponse<Stream<String>> r = n(1).client(elsewhere).call(3, "quiet", null);
            return r.statusCode() == 200 && RawHttpClient.body(r).contains("ok from n1");
          } catch (Exception e) {
            return false;
          }
        },
        "the cluster serves again after Redis returns");
  }

  private static List<String> describeNext(SseReader reader, int count) throws Exception {
    List<String> out = new ArrayList<>();
    while (out.size() < count) {
      SseReader.Event e = reader.next(Duration.ofSeconds(30));
      assertThat(e).as("event %d of %d (got %s)", out.size() + 1, count, out).isNotNull();
      if (e.priming() || e.data().isBlank()) {
        continue;
      }
      out.add(RawHttpClient.describe(e.json()));
    }
    return out;
  }
}
