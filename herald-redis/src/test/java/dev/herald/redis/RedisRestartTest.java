package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.server.McpServer;
import dev.herald.testing.Background;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import io.lettuce.core.RedisURI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis restart as the nodes of a cluster live it (docs/scale-out.md, "When Redis is
 * unavailable"), on a real redis-server stopped and started again on the same port: once Redis is
 * back no node stays refusing. Before these fixes a node behind a balancer (where every client
 * shares one address) filled its per-client share with sessions its clients had given up during
 * the restart and with copies of other nodes' sessions, and then refused every new or restored
 * session for the idle timeout (ten minutes).
 */
class RedisRestartTest {
  private static final Duration WAIT = Duration.ofMinutes(1);

  private static final String INITIALIZE =
      "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
          + "'capabilities':{},'clientInfo':{'name':'test','version':'1'}}}";

  private RedisProcess redis;
  private Node a;
  private Node b;

  /** An in-process node: its own McpServer and Jetty server, joined to the cluster. */
  final class Node extends HttpNode {
    final String name;

    Node(String name, int sessionsPerClient) {
      super(
          McpServer.builder()
              .tool(Tool.builder("quiet").build(), call -> CallToolResult.text("ok from " + name))
              .build(),
          redis.uri(),
          b -> b.maxSessionsPerClient(sessionsPerClient));
      this.name = name;
    }

    /** A new session on this node, initialized; its id. */
    String session() throws Exception {
      return new RawHttpClient(http.uri()).initialize();
    }

    HttpResponse<Stream<String>> initialize() throws Exception {
      return new RawHttpClient(http.uri()).post(INITIALIZE);
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    a = new Node("a", 2);
    b = new Node("b", 64);
  }

  @AfterEach
  void stop() {
    a.close();
    b.close();
    redis.close();
  }

  @Test
  void copiesOfSessionsMadeOnOtherNodesDoNotTakeTheClientsShareOfANode() throws Exception {
    a.session();
    a.session(); // this client's whole share on a
    for (int i = 0; i < 3; i++) {
      String elsewhere = b.session();
      HttpResponse<Stream<String>> r = a.client(elsewhere).call(i + 1, "quiet", null);
      assertThat(r.statusCode()).as("session %d made on b, used on a", i).isEqualTo(200);
      assertThat(RawHttpClient.body(r)).contains("ok from a");
    }
    HttpResponse<Stream<String>> third = a.initialize();
    assertThat(third.statusCode())
        .as("a new session beyond the share is still refused")
        .isEqualTo(429);
    RawHttpClient.body(third);
  }

  @Test
  void anInitializeTheClusterCannotRecordIsRefusedAndKeepsNoSession() throws Exception {
    redis.stop();
    for (int i = 0; i < 3; i++) { // more than a's share of 2: none of them is kept
      HttpResponse<Stream<String>> r = a.initialize();
      assertThat(r.headers().firstValue("Mcp-Session-Id")).as("attempt %d", i).isEmpty();
      assertThat(RawHttpClient.body(r)).contains("-32603").contains("cannot be reached");
    }
    redis.restart();
    eventually(
        WAIT,
        () -> {
          try {
            return a.initialize().headers().firstValue("Mcp-Session-Id").isPresent();
          } catch (Exception e) {
            return false;
          }
        },
        "a makes sessions again once Redis is back");
    String second = a.session(); // the share's second slot was free too
    HttpResponse<Stream<String>> r = b.client(second).call(1, "quiet", null);
    assertThat(r.statusCode()).as("the session a made is found by b").isEqualTo(200);
    assertThat(RawHttpClient.body(r)).contains("ok from b");
  }

  @Test
  void aLookupWaitsForAConnectionThatIsReconnectingInsteadOfFailing() throws Exception {
    try (Redis connection =
        Redis.connect(RedisURI.create(redis.uri()), "restart:", Duration.ofSeconds(2))) {
      SessionDirectory impatient =
          new SessionDirectory(connection, Duration.ofHours(1), Duration.ZERO);
      SessionDirectory patient =
          new SessionDirectory(connection, Duration.ofHours(1), Duration.ofMinutes(2));
      redis.stop();
      assertThatThrownBy(() -> impatient.lookup("s")).isInstanceOf(RedisUnavailableException.class);
      AtomicBoolean asked = new AtomicBoolean();
      CompletableFuture<Optional<?>> lookup =
          Background.supply(() -> {
            asked.set(true);
            return patient.lookup("s");
          });
      eventually(WAIT, asked::get, "the lookup is under way while Redis is down");
      assertThat(lookup).isNotDone();
      redis.restart();
      assertThat(lookup.get(WAIT.toSeconds(), TimeUnit.SECONDS))
          .as("answered once the connection is back: no node knows the session")
          .isEmpty();
    }
  }

  @Test
  void aLookupWhileRedisStaysDownFailsOnceItsPatienceIsSpent() throws Exception {
    try (Redis connection =
        Redis.connect(RedisURI.create(redis.uri()), "restart:", Duration.ofSeconds(2))) {
      SessionDirectory directory =
          new SessionDirectory(connection, Duration.ofHours(1), Duration.ofMillis(300));
      redis.stop();
      CompletableFuture<Optional<?>> lookup = Background.supply(() -> directory.lookup("s"));
      assertThatThrownBy(() -> lookup.get(WAIT.toSeconds(), TimeUnit.SECONDS)) // never hangs
          .hasCauseInstanceOf(RedisUnavailableException.class);
    }
  }
}
