package dev.herald.interop.cluster;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.testing.HaproxyProcess;
import dev.herald.testing.HeraldJar;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.testing.SseReader;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Three real {@code herald serve --redis} node processes on one real redis-server, behind a real
 * HAProxy (round robin, no stickiness), driven through the balancer by Herald's client
 * (docs/scale-out.md): the checks a single node passes, passed by the cluster.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterBehindHaproxyIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** A node's JVM loads Netty and Lettuce before it listens: slow on a busy machine. */
  private static final Duration START = Duration.ofSeconds(300);

  private static RedisProcess redis;
  private static final List<Process> processes = new ArrayList<>();
  private static final List<Process> nodes = new ArrayList<>();
  private static final List<Integer> ports = new ArrayList<>();
  private static Path dir;
  private static URI balancer;
  private static HaproxyProcess haproxy;

  @BeforeAll
  static void startCluster() throws Exception {
    Assumptions.assumeTrue(RedisProcess.installed(), "redis-server is not installed");
    Assumptions.assumeTrue(HaproxyProcess.installed(), "haproxy is not installed");
    redis = RedisProcess.start();
    dir = Files.createTempDirectory("herald-cluster-it");
    int lb = RedisProcess.freePort();
    for (int i = 0; i < 3; i++) {
      int port = RedisProcess.freePort();
      ports.add(port);
      Process node =
          new ProcessBuilder(
                  HeraldJar.command(
                      "serve",
                      "--port",
                      Integer.toString(port),
                      "--redis",
                      redis.uri(),
                      "--allow-host",
                      "127.0.0.1:" + lb))
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("node" + i + ".log").toFile())
              .start();
      processes.add(node);
      nodes.add(node);
    }
    for (int port : ports) {
      eventually(START, () -> listening(port), "node on port " + port + " is up");
    }
    haproxy = HaproxyProcess.start(lb, ports, 2048);
    balancer = haproxy.uri("/mcp");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    for (Process p : processes) {
      p.waitFor(20, TimeUnit.SECONDS);
    }
    if (haproxy != null) {
      haproxy.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static McpClient client() throws InterruptedException {
    return McpClient.builder()
        .eras(EraPreference.HANDSHAKE_ONLY) // sessions are what a cluster shares
        .connect(new StreamableHttpClientTransport(balancer));
  }

  @Test
  void aCallsProgressArrivesInOrderBeforeItsResponseThroughTheBalancer() throws Exception {
    try (McpClient client = client()) {
      for (int round = 0; round < 3; round++) { // the call lands on a different node each time
        List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
        CallToolResult r =
            client.callTool(
                "slow",
                McpJson.object().put("steps", 5).put("delayMs", 10),
                CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
        assertThat(r.firstText()).isEqualTo("completed 5 steps");
        assertThat(updates.stream().map(ProgressUpdate::progress).toList())
            .as("round %d", round)
            .isSorted()
            .contains(5.0);
      }
    }
  }

  @Test
  void aCancellationArrivingAtAnotherNodeStopsTheCall() throws Exception {
    RawHttpClient raw = new RawHttpClient(balancer);
    raw.initialize(); // initialize and initialized: two requests, on two nodes
    HttpResponse<Stream<String>> call =
        raw.post(
            "{'jsonrpc':'2.0','id':41,'method':'tools/call','params':{'name':'slow',"
                + "'arguments':{'steps':600,'delayMs':100},'_meta':{'progressToken':'p'}}}");
    assertThat(call.statusCode()).isEqualTo(200);
    try (SseReader stream = new SseReader(call.body())) {
      SseReader.Event first;
      do {
        first = stream.next(WAIT);
        assertThat(first).as("a first progress").isNotNull();
      } while (first.priming() || first.data().isBlank());
      assertThat(RawHttpClient.describe(first.json())).isEqualTo("progress p 1");
      HttpResponse<Stream<String>> cancel =
          raw.post(
              "{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':41}}");
      assertThat(cancel.statusCode()).isEqualTo(202);
      RawHttpClient.body(cancel);
      // The call would run for a minute; its node ends its stream, with no response, once it
      // is cancelled, wherever the cancellation landed.
      List<String> rest = new ArrayList<>();
      for (SseReader.Event e : stream.rest()) {
        if (!e.priming() && !e.data().isBlank()) {
          rest.add(RawHttpClient.describe(e.json()));
        }
      }
      assertThat(rest).allMatch(d -> d.startsWith("progress p "));
      assertThat(rest.size()).isLessThan(590);
    }
  }

  @Test
  void aListChangeReachesEverySessionOnce() throws Exception {
    int sessions = 12;
    List<McpClient> clients = new ArrayList<>();
    List<AtomicInteger> heard = new ArrayList<>();
    try {
      for (int i = 0; i < sessions; i++) {
        AtomicInteger n = new AtomicInteger();
        heard.add(n);
        clients.add(
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .onToolsListChanged(n::incrementAndGet)
                .connect(new StreamableHttpClientTransport(balancer)));
      }
      for (McpClient c : clients) {
        c.ping(); // each session's standing stream is open and its session known
      }
      clients.get(0).callTool("touch", McpJson.object().put("area", "tools"));
      eventually(WAIT, () -> heard.stream().allMatch(n -> n.get() >= 1), "every session heard it");
      for (McpClient c : clients) {
        c.ping();
      }
      assertThat(heard).allMatch(n -> n.get() == 1);
    } finally {
      clients.forEach(McpClient::close);
    }
  }

  @Test
  void aResourceUpdateReachesItsSubscribersOnly() throws Exception {
    try (McpClient subscriber = client()) {
      AtomicInteger updates = new AtomicInteger();
      subscriber.subscribe("demo://counter", u -> updates.incrementAndGet());
      RawHttpClient other = new RawHttpClient(balancer);
      other.initialize();
      try (SseReader otherStream = other.get(null)) {
        try (McpClient caller = client()) {
          caller.callTool("update_resource", null);
        }
        eventually(WAIT, () -> updates.get() == 1, "the subscriber heard the update");
        subscriber.callTool("touch", McpJson.object().put("area", "prompts"));
        SseReader.Event e;
        do {
          e = otherStream.next(WAIT);
          assertThat(e).as("the unsubscribed session's next event").isNotNull();
        } while (e.priming() || e.data().isBlank());
        assertThat(RawHttpClient.describe(e.json()))
            .as("no resources/updated before the list change")
            .isEqualTo("notifications/prompts/list_changed");
      }
    }
  }

  @Test
  void logsFollowEachSessionsLevelWhicheverNodeServesTheCall() throws Exception {
    List<LoggingMessageParams> quietLogs = new CopyOnWriteArrayList<>();
    List<LoggingMessageParams> chattyLogs = new CopyOnWriteArrayList<>();
    try (McpClient quiet =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .onLog(quietLogs::add)
                .connect(new StreamableHttpClientTransport(balancer));
        McpClient chatty =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .onLog(chattyLogs::add)
                .connect(new StreamableHttpClientTransport(balancer))) {
      quiet.setLoggingLevel(LoggingLevel.WARNING);
      for (int round = 0; round < 3; round++) {
        quiet.callTool("emit_logs", McpJson.object().put("count", 2).put("level", "info"));
        chatty.callTool("emit_logs", McpJson.object().put("count", 2).put("level", "info"));
        quiet.callTool("emit_logs", McpJson.object().put("count", 1).put("level", "warning"));
      }
      eventually(WAIT, () -> chattyLogs.size() == 6, "the chatty session's info logs");
      eventually(WAIT, () -> quietLogs.size() == 3, "the quiet session's warnings");
      assertThat(quietLogs).allMatch(m -> m.level() == LoggingLevel.WARNING);
    }
  }

  /** A client talking to one node directly (not through the balancer). */
  private static RawHttpClient node(int i, String session) {
    RawHttpClient c = new RawHttpClient(URI.create("http://127.0.0.1:" + ports.get(i) + "/mcp"));
    c.session = session;
    return c;
  }

  /** The next event that carries a message (priming events and blank data skipped), or null. */
  private static SseReader.@org.jspecify.annotations.Nullable Event message(SseReader r)
      throws InterruptedException {
    SseReader.Event e;
    do {
      e = r.next(WAIT);
    } while (e != null && (e.priming() || e.data().isBlank()));
    return e;
  }

  /** Every message event until the stream ends. */
  private static List<SseReader.Event> messages(SseReader r) throws InterruptedException {
    List<SseReader.Event> out = new ArrayList<>();
    for (SseReader.Event e; (e = message(r)) != null; ) {
      out.add(e);
    }
    return out;
  }

  private static long seq(SseReader.Event e) {
    String id = e.id();
    assertThat(id).isNotNull();
    return Long.parseLong(id.substring(id.indexOf('_') + 1));
  }

  /** Starts {@code slow} on node {@code i} directly and reads its first {@code n} progress events. */
  private static List<SseReader.Event> startSlow(
      int i, String session, int id, int steps, int n, SseReader[] held) throws Exception {
    HttpResponse<Stream<String>> call =
        node(i, session)
            .post(
                "{'jsonrpc':'2.0','id':"
                    + id
                    + ",'method':'tools/call','params':{'name':'slow',"
                    + "'arguments':{'steps':"
                    + steps
                    + ",'delayMs':50},'_meta':{'progressToken':'p'}}}");
    assertThat(call.statusCode()).isEqualTo(200);
    held[0] = new SseReader(call.body());
    List<SseReader.Event> seen = new ArrayList<>();
    while (seen.size() < n) {
      SseReader.Event e = message(held[0]);
      assertThat(e).as("progress event %d", seen.size() + 1).isNotNull();
      seen.add(e);
    }
    return seen;
  }

  /** The resumed events: consecutive ids after {@code after}, each once, in order. */
  private static List<String> checkConsecutive(long after, List<SseReader.Event> events) {
    List<String> out = new ArrayList<>();
    long expected = after + 1;
    for (SseReader.Event e : events) {
      assertThat(seq(e)).as("event ids follow each other").isEqualTo(expected++);
      out.add(RawHttpClient.describe(e.json()));
    }
    return out;
  }

  @Test
  @Order(Integer.MAX_VALUE - 3)
  void aStreamResumedOnAnotherNodeGetsWhatItMissedThenFollowsTheCallToItsResponse()
      throws Exception {
    RawHttpClient raw = new RawHttpClient(balancer);
    String session = raw.initialize();
    SseReader[] post = new SseReader[1];
    List<SseReader.Event> seen = startSlow(0, session, 51, 40, 2, post);
    post[0].close(); // the connection drops; node 0 runs the call on
    String from = seen.get(0).id();
    List<String> resumed;
    try (SseReader r = node(1, session).get(from)) {
      resumed = checkConsecutive(seq(seen.get(0)), messages(r));
    }
    assertThat(resumed).last().isEqualTo("result 51 completed 40 steps");
    assertThat(resumed.subList(0, resumed.size() - 1)).allMatch(d -> d.startsWith("progress p "));
    // the same resumption once the call is over, on the third node: the same events
    try (SseReader r = node(2, session).get(from)) {
      assertThat(checkConsecutive(seq(seen.get(0)), messages(r))).isEqualTo(resumed);
    }
  }

  @Test
  @Order(Integer.MAX_VALUE - 2) // it kills node 2
  void aStreamWhoseNodeWasKilledResumesThroughTheBalancerAndEndsWithAnError() throws Exception {
    RawHttpClient raw = new RawHttpClient(balancer);
    String session = raw.initialize();
    // a task created on node 2, kept in Redis
    String task =
        result(
                node(2, session)
                    .post(
                        "{'jsonrpc':'2.0','id':60,'method':'tools/call','params':{'name':"
                            + "'slow_compute','arguments':{'seconds':600},'task':{'ttl':600000}}}"))
            .at("/result/task/taskId")
            .asString();
    assertThat(task).isNotBlank();
    SseReader[] post = new SseReader[1];
    List<SseReader.Event> seen = startSlow(2, session, 61, 600, 4, post);
    Process victim = nodes.get(2);
    victim.destroyForcibly(); // SIGKILL, in the middle of the call's stream
    assertThat(victim.waitFor(60, TimeUnit.SECONDS)).isTrue();
    post[0].close();
    // Resumed from the second event through the balancer, on a node left: every event node 2
    // stored after it, once and in order, then an error response (its node stopped).
    RawHttpClient resumer = new RawHttpClient(balancer);
    resumer.session = session;
    List<String> resumed;
    try (SseReader r = resumer.get(seen.get(1).id())) {
      resumed = checkConsecutive(seq(seen.get(1)), messages(r));
    }
    assertThat(resumed).hasSizeGreaterThanOrEqualTo(3); // events 3 and 4 at least, and the end
    assertThat(resumed.subList(0, resumed.size() - 1)).allMatch(d -> d.startsWith("progress p "));
    assertThat(resumed)
        .startsWith(
            RawHttpClient.describe(seen.get(2).json()), RawHttpClient.describe(seen.get(3).json()));
    assertThat(resumed).last().isEqualTo("error 61 -32603");
    // the task node 2 ran is readable through the balancer, and failed once its node is gone
    eventually(
        WAIT,
        () -> {
          try {
            return "failed"
                .equals(
                    result(
                            resumer.post(
                                "{'jsonrpc':'2.0','id':62,'method':'tasks/get','params':{'taskId':'"
                                    + task
                                    + "'}}"))
                        .at("/result/status")
                        .asString(""));
          } catch (Exception e) {
            return false;
          }
        },
        "the dead node's task ended failed");
  }

  /** The JSON-RPC response in {@code r}'s body (plain JSON, or the SSE event carrying it). */
  private static tools.jackson.databind.JsonNode result(HttpResponse<Stream<String>> r) {
    for (String line : RawHttpClient.body(r).split("\n")) {
      String json = line.startsWith("data: ") ? line.substring(6) : line;
      if (json.startsWith("{") && (json.contains("\"result\"") || json.contains("\"error\""))) {
        return RawHttpClient.json(json);
      }
    }
    throw new AssertionError("no response in " + r);
  }

  @Test
  @Order(Integer.MAX_VALUE - 1) // near the end: it restarts Redis
  void aRedisRestartMidRunHangsNothingAndTheClusterServesAgain() throws Exception {
    try (McpClient client = client()) {
      ToolCallHandle inFlight =
          client.callToolAsync(
              "slow",
              McpJson.object().put("steps", 20).put("delayMs", 100),
              CallOptions.defaults());
      redis.stop();
      try {
        // The call needs no Redis (it runs where it landed): it completes, or fails; never hangs.
        CallToolResult r = inFlight.result().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(r.firstText()).isEqualTo("completed 20 steps");
      } catch (java.util.concurrent.ExecutionException e) {
        // an error is an acceptable end too
      }
      redis.restart(); // empty: the nodes record their sessions again
      eventually(
          WAIT,
          () -> {
            try {
              RawHttpClient fresh = new RawHttpClient(balancer);
              fresh.initialize();
              for (int i = 0; i < 3; i++) {
                HttpResponse<Stream<String>> r =
                    fresh.post(
                        "{'jsonrpc':'2.0','id':"
                            + (300 + i)
                            + ",'method':'tools/call','params':{'name':'echo','arguments':{'text':'back'}}}");
                if (r.statusCode() != 200 || !RawHttpClient.body(r).contains("back")) {
                  return false;
                }
              }
              return client
                  .callTool("echo", McpJson.object().put("text", "old"))
                  .firstText()
                  .equals("old");
            } catch (Exception | AssertionError e) {
              return false;
            }
          },
          "the cluster serves new and old sessions again after Redis returned");
    }
  }

  @Test
  @Order(Integer.MAX_VALUE) // last: it kills a node
  void aSessionOutlivesANodeKilledWithSigkill() throws Exception {
    RawHttpClient raw = new RawHttpClient(balancer);
    raw.initialize();
    for (int i = 0; i < 3; i++) { // every node serves it (and holds a copy)
      HttpResponse<Stream<String>> r =
          raw.post(
              "{'jsonrpc':'2.0','id':"
                  + (100 + i)
                  + ",'method':'tools/call','params':{'name':'echo','arguments':{'text':'before'}}}");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(RawHttpClient.body(r)).contains("before");
    }
    Process victim = nodes.get(0);
    victim.destroyForcibly(); // SIGKILL
    assertThat(victim.waitFor(60, TimeUnit.SECONDS)).isTrue();
    // The balancer notices within a few health checks (and redispatches meanwhile); the session,
    // recorded in Redis, is served by the nodes left.
    for (int i = 0; i < 6; i++) {
      HttpResponse<Stream<String>> r =
          raw.post(
              "{'jsonrpc':'2.0','id':"
                  + (200 + i)
                  + ",'method':'tools/call','params':{'name':'echo','arguments':{'text':'still "
                  + i
                  + "'}}}");
      assertThat(r.statusCode()).as("call %d after the kill", i).isEqualTo(200);
      assertThat(RawHttpClient.body(r)).contains("still " + i);
    }
  }
}
