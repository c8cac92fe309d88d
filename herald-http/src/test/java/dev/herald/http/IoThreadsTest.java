package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The server's Jetty threads, virtual (the default) or platform ({@link IoThreads}). */
class IoThreadsTest {
  /** Ends every spinning handler when a test is over, whatever happened. */
  private volatile boolean over;

  private final AtomicInteger spinning = new AtomicInteger();
  private final AtomicInteger cancelledSpins = new AtomicInteger();
  private McpHttpServer http;

  private McpHttpServer start(IoThreads kind) {
    McpServer mcp =
        McpServer.builder()
            .tool(
                Tool.builder("echo").description("Says ok").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("spin")
                    .description("Computes without blocking until cancelled")
                    .build(),
                call -> {
                  spinning.incrementAndGet();
                  try {
                    while (!call.context().cancellation().isCancelled() && !over) {
                      Thread.onSpinWait();
                    }
                    if (call.context().cancellation().isCancelled()) {
                      cancelledSpins.incrementAndGet();
                    }
                  } finally {
                    spinning.decrementAndGet();
                  }
                  return CallToolResult.text("stopped");
                })
            .build();
    http = McpHttpServer.builder().server(mcp).ioThreads(kind).build().start();
    return http;
  }

  @AfterEach
  void stop() {
    over = true;
    if (http != null) {
      http.close();
    }
  }

  @ParameterizedTest
  @EnumSource(IoThreads.class)
  void eachKindOfIoThreadsServesASessionsCalls(IoThreads kind) throws Exception {
    RawHttpClient client = new RawHttpClient(start(kind).uri());
    client.initialize();
    for (int i = 0; i < 20; i++) {
      HttpResponse<Stream<String>> r = client.call(client.nextId(), "echo", null);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(RawHttpClient.body(r)).contains("\"text\":\"ok\"");
    }
  }

  @Test
  void virtualIoThreadsAreTheDefaultFromJava25AndRefusedBefore() {
    assertThat(IoThreads.defaultFor(Runtime.Version.parse("21.0.5"))).isEqualTo(IoThreads.PLATFORM);
    assertThat(IoThreads.defaultFor(Runtime.Version.parse("24"))).isEqualTo(IoThreads.PLATFORM);
    assertThat(IoThreads.defaultFor(Runtime.Version.parse("25.0.3"))).isEqualTo(IoThreads.VIRTUAL);
    assertThat(IoThreads.defaultFor(Runtime.Version.parse("26-ea"))).isEqualTo(IoThreads.VIRTUAL);
    McpHttpServer.Builder b = McpHttpServer.builder();
    if (Runtime.version().feature() >= 25) {
      assertThat(b.ioThreads(IoThreads.VIRTUAL)).isSameAs(b);
    } else {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.ioThreads(IoThreads.VIRTUAL))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("needs Java 25");
    }
  }

  /** A started server keeps the JVM alive, as a server should; closed, it leaves no thread. */
  @ParameterizedTest
  @EnumSource(IoThreads.class)
  void aServerKeepsTheJvmAliveUntilClosedAndLeavesNoThreadBehind(IoThreads kind) throws Exception {
    Set<Thread> before = livePlatformThreads();
    RawHttpClient client = new RawHttpClient(start(kind).uri());
    client.initialize();
    assertThat(client.call(client.nextId(), "echo", null).statusCode()).isEqualTo(200);
    Set<Thread> started = livePlatformThreads();
    started.removeAll(before);
    assertThat(started).anyMatch(t -> !t.isDaemon());
    http.close();
    awaitTrue(() -> started.stream().noneMatch(Thread::isAlive), "every server thread ended");
  }

  /**
   * {@code close()} gives the port back before it returns: a server restarted on the same port at
   * once binds it, though an open session's connection was dropped with the first.
   */
  @ParameterizedTest
  @EnumSource(IoThreads.class)
  void aClosedServersPortCanBeBoundAgainAtOnce(IoThreads kind) throws Exception {
    McpServer mcp =
        McpServer.builder()
            .tool(Tool.builder("echo").build(), call -> CallToolResult.text("ok"))
            .build();
    int port = 0;
    for (int i = 0; i < 30; i++) {
      http = McpHttpServer.builder().server(mcp).port(port).ioThreads(kind).build().start();
      port = http.uri().getPort();
      RawHttpClient client = new RawHttpClient(http.uri());
      client.initialize();
      assertThat(client.call(client.nextId(), "echo", null).statusCode()).isEqualTo(200);
      http.close();
      http = null;
    }
  }

  /**
   * As many handlers as the virtual-thread scheduler has carriers compute without blocking; with
   * platform I/O threads the clients' cancellations are still read, and every handler sees it.
   */
  @Test
  void platformIoThreadsReadCancellationsWhileHandlersComputeOnEveryCarrier() throws Exception {
    int carriers =
        Integer.getInteger(
            "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    RawHttpClient client = new RawHttpClient(start(IoThreads.PLATFORM).uri());
    client.initialize();
    // A client of platform threads of its own, so that nothing on the client side needs a carrier.
    try (HttpClient async = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      List<Integer> ids = new ArrayList<>();
      List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
      for (int i = 0; i < carriers; i++) {
        int id = client.nextId();
        ids.add(id);
        calls.add(
            async.sendAsync(
                posting(
                    client,
                    "{'jsonrpc':'2.0','id':"
                        + id
                        + ",'method':'tools/call',"
                        + "'params':{'name':'spin','arguments':{}}}"),
                HttpResponse.BodyHandlers.ofString()));
      }
      awaitTrue(() -> spinning.get() == carriers, "every carrier computing");

      for (int id : ids) {
        HttpResponse<String> cancel =
            async.send(
                posting(
                    client,
                    "{'jsonrpc':'2.0','method':'notifications/cancelled',"
                        + "'params':{'requestId':"
                        + id
                        + ",'reason':'enough'}}"),
                HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isEqualTo(202);
      }
      awaitTrue(() -> cancelledSpins.get() == carriers, "every handler saw its cancellation");
      awaitTrue(() -> spinning.get() == 0, "every handler ended");
      for (CompletableFuture<HttpResponse<String>> call : calls) {
        // a cancelled request gets no response: its exchange ends without a JSON-RPC answer
        assertThat(call.get(30, TimeUnit.SECONDS).body()).doesNotContain("\"result\"");
      }
    }
  }

  /** A POST of {@code json} (single quotes for double) with the session's headers. */
  private static HttpRequest posting(RawHttpClient client, String json) {
    return client
        .request()
        .POST(HttpRequest.BodyPublishers.ofString(RawHttpClient.q(json)))
        .build();
  }

  /** The live platform threads, but the JDK HTTP clients' own (shared with other tests). */
  private static Set<Thread> livePlatformThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !t.getName().startsWith("HttpClient-"))
        .collect(Collectors.toSet());
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not reached in 30 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}
