package dev.herald.http.cluster;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
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
import org.junit.jupiter.api.Test;

/**
 * The HTTP layer's cluster seams (docs/scale-out.md) over two real Jetty nodes that share an
 * in-memory directory: any node serves any request of a session, state changes follow the session,
 * unsolicited messages reach the node holding its standing stream, server-wide notifications reach
 * each session once, and a cancellation reaches the node running the request.
 */
class ClusterSeamsTest {
  private final InMemoryCluster cluster = new InMemoryCluster();
  private final List<Node> nodes = new ArrayList<>();

  /** One node: its own McpServer (the same catalog on each) behind its own McpHttpServer. */
  final class Node {
    final McpServer mcp;
    final McpHttpServer http;
    final CountDownLatch holdStarted = new CountDownLatch(1);
    final AtomicBoolean holdCancelled = new AtomicBoolean();
    final CountDownLatch holdEnded = new CountDownLatch(1);

    Node(String id) {
      mcp =
          McpServer.builder()
              .progressInterval(Duration.ZERO)
              .listChangedDebounce(Duration.ZERO)
              .logRateLimit(100_000, 100_000)
              .tool(Tool.builder("quiet").build(), call -> CallToolResult.text("ok from " + id))
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
                  Tool.builder("tell_session").build(),
                  call -> {
                    call.context().session().log(LoggingLevel.WARNING, "cluster", "from " + id);
                    return CallToolResult.text("told");
                  })
              .tool(
                  Tool.builder("hold").build(),
                  call -> {
                    holdStarted.countDown();
                    try {
                      Thread.sleep(Duration.ofSeconds(30));
                    } catch (InterruptedException e) {
                      holdCancelled.set(call.context().cancellation().isCancelled());
                    } finally {
                      holdEnded.countDown();
                    }
                    return CallToolResult.text("held");
                  })
              .build();
      http = McpHttpServer.builder().server(mcp).cluster(cluster.node(id)).build().start();
    }

    RawHttpClient client(@Nullable String session) {
      RawHttpClient c = new RawHttpClient(http.uri());
      c.session = session;
      return c;
    }
  }

  private Node node(String id) {
    Node n = new Node(id);
    nodes.add(n);
    return n;
  }

  @AfterEach
  void close() {
    nodes.forEach(n -> n.http.close());
  }

  @Test
  void aSessionStartedOnOneNodeIsServedByAnotherAndUnknownIdsStay404() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String session = a.client(null).initialize();

    HttpResponse<Stream<String>> r = b.client(session).call(1, "quiet", null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.body(r)).contains("ok from b");

    HttpResponse<Stream<String>> unknown = b.client("no-such-session").call(2, "quiet", null);
    assertThat(unknown.statusCode()).isEqualTo(404);
    RawHttpClient.body(unknown);
  }

  @Test
  void aLogLevelSetOnOneNodeAppliesOnTheOther() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String session = a.client(null).initialize();
    HttpResponse<Stream<String>> set =
        b.client(session)
            .post(
                "{'jsonrpc':'2.0','id':1,'method':'logging/setLevel','params':{'level':'warning'}}");
    assertThat(set.statusCode()).isEqualTo(200);
    RawHttpClient.body(set);

    String body = RawHttpClient.body(a.client(session).call(2, "levels", null));
    assertThat(body).contains("\"data\":\"warning\"").doesNotContain("\"data\":\"info\"");
  }

  @Test
  void anUnsolicitedMessageMadeOnAnotherNodeReachesTheStandingStreamOnce() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String session = a.client(null).initialize();
    try (SseReader standing = a.client(session).get(null)) {
      RawHttpClient.body(b.client(session).call(1, "tell_session", null));
      RawHttpClient.body(a.client(session).call(2, "tell_session", null));
      assertThat(describeNext(standing, 2)).containsExactly("log from b", "log from a");
    }
  }

  @Test
  void aListChangeAndAServerLogReachEverySessionOnceWhicheverNodeHoldsItsStream() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String one = a.client(null).initialize();
    String two = a.client(null).initialize();
    RawHttpClient.body(b.client(one).call(1, "quiet", null)); // a copy of each on both nodes
    RawHttpClient.body(b.client(two).call(1, "quiet", null));
    try (SseReader first = a.client(one).get(null);
        SseReader second = b.client(two).get(null)) { // the second's stream moves to b
      eventually(() -> cluster.directory.get(two).homeNode().equals("b"), "b is two's home");
      b.mcp.addTool(Tool.builder("added").build(), call -> CallToolResult.text("added"));
      a.mcp.log(LoggingLevel.WARNING, "cluster", "marker");
      // the list change is debounced, so the two may come in either order
      assertThat(describeNext(first, 2))
          .containsExactlyInAnyOrder("notifications/tools/list_changed", "log marker");
      assertThat(describeNext(second, 2))
          .containsExactlyInAnyOrder("notifications/tools/list_changed", "log marker");
      b.mcp.log(LoggingLevel.WARNING, "cluster", "second marker"); // nothing came twice before it
      assertThat(describeNext(first, 1)).containsExactly("log second marker");
      assertThat(describeNext(second, 1)).containsExactly("log second marker");
    }
  }

  @Test
  void aCancellationLandingOnAnotherNodeStopsTheHandler() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String session = a.client(null).initialize();
    Thread call =
        Thread.ofVirtual()
            .start(() -> {
              try {
                RawHttpClient.body(a.client(session).call(7, "hold", null));
              } catch (Exception e) {
                // the stream ends without a response
              }
            });
    assertThat(a.holdStarted.await(20, TimeUnit.SECONDS)).isTrue();
    HttpResponse<Stream<String>> cancel =
        b.client(session)
            .post("{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':7}}");
    assertThat(cancel.statusCode()).isEqualTo(202);
    RawHttpClient.body(cancel);
    assertThat(a.holdEnded.await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(a.holdCancelled).isTrue();
    call.join(Duration.ofSeconds(20));
  }

  @Test
  void deleteOnOneNodeEndsTheSessionOnEvery() throws Exception {
    Node a = node("a");
    Node b = node("b");
    String session = a.client(null).initialize();
    RawHttpClient.body(b.client(session).call(1, "quiet", null));
    HttpResponse<String> deleted =
        b.client(session).sendForString(b.client(session).request().DELETE());
    assertThat(deleted.statusCode()).isEqualTo(200);
    HttpResponse<Stream<String>> after = a.client(session).call(2, "quiet", null);
    assertThat(after.statusCode()).isEqualTo(404);
    RawHttpClient.body(after);
    assertThat(cluster.directory).doesNotContainKey(session);
  }

  private static List<String> describeNext(SseReader reader, int count) throws Exception {
    List<String> out = new ArrayList<>();
    while (out.size() < count) {
      SseReader.Event e = reader.next(Duration.ofSeconds(20));
      assertThat(e).as("event %d of %d (got %s)", out.size() + 1, count, out).isNotNull();
      if (e.priming() || e.data().isBlank()) {
        continue;
      }
      out.add(RawHttpClient.describe(e.json()));
    }
    return out;
  }
}
