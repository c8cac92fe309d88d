package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.StreamProbe;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request cancelled with {@code notifications/cancelled} gets no response (MCP 2025-11-25
 * basic/utilities/cancellation), so the HTTP stream that waited for it must end by itself, its
 * resumption must end too, and its id must be free again.
 */
class CancelledCallStreamTest {
  private final CountDownLatch never = new CountDownLatch(1);
  private McpHttpServer http;
  private Client client;

  @BeforeEach
  void start() throws Exception {
    McpServer mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("slow")
                    .description("Reports progress, then waits to be cancelled")
                    .build(),
                call -> {
                  call.context().progress().report(1, null, null);
                  never.await(60, TimeUnit.SECONDS);
                  return CallToolResult.text("late");
                })
            .tool(
                Tool.builder("silent").description("Waits to be cancelled, saying nothing").build(),
                call -> {
                  never.await(60, TimeUnit.SECONDS);
                  return CallToolResult.text("late");
                })
            .build();
    http = McpHttpServer.builder().server(mcp).build().start();
    client = new Client(http.uri());
    client.initialize();
  }

  @AfterEach
  void stop() {
    never.countDown();
    http.close();
  }

  @Test
  void aCancelledCallsStreamEndsItsResumptionEndsAndItsIdCanBeReused() throws Exception {
    HttpResponse<Stream<String>> call = client.call(5, "slow", "p5");
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
    try (SseReader stream = new SseReader(call.body())) {
      Event progress = firstMessage(stream);
      assertThat(RawHttpClient.describe(progress.json())).isEqualTo("progress p5 1");

      assertThat(cancel(5)).isEqualTo(202);

      assertThat(stream.next(Duration.ofSeconds(5)))
          .as("the cancelled call's stream ends")
          .isNull();
      assertThat(progress.id()).isNotNull();
      // Its resumption ends at once, with no stream: an empty stream that ends without a response
      // would make the official SDKs' clients resume it again and again.
      HttpRequest.Builder resume =
          HttpRequest.newBuilder(http.uri())
              .GET()
              .header("Accept", "text/event-stream")
              .header("MCP-Protocol-Version", "2025-11-25")
              .header("Mcp-Session-Id", client.session)
              .header("Last-Event-ID", progress.id());
      HttpResponse<String> resumed =
          client
              .http
              .sendAsync(resume.build(), HttpResponse.BodyHandlers.ofString())
              .get(5, TimeUnit.SECONDS);
      assertThat(resumed.statusCode()).isEqualTo(204);
      assertThat(resumed.body()).isEmpty();
    }
    assertThat(StreamProbe.openRequestStreams(http.endpoint)).isZero();
    HttpResponse<Stream<String>> again = client.call(5, "quiet", null);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.describe(RawHttpClient.json(RawHttpClient.body(again))))
        .isEqualTo("result 5 ok");
  }

  @Test
  void aCallCancelledBeforeItSaidAnythingIsAnsweredWithAnEmptyStreamThatEnds() throws Exception {
    CompletableFuture<HttpResponse<String>> call =
        client.http.sendAsync(
            client
                .request()
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Client.q(
                            "{'jsonrpc':'2.0','id':6,'method':'tools/call','params':{'name':'silent','arguments':{}}}")))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    waitFor(() -> StreamProbe.openRequestStreams(http.endpoint) == 1, "the call is open");

    assertThat(cancel(6)).isEqualTo(202);

    HttpResponse<String> ended = call.get(5, TimeUnit.SECONDS);
    assertThat(ended.statusCode()).isEqualTo(200);
    assertThat(ended.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
    assertThat(ended.body()).doesNotContain("\"result\"").doesNotContain("\"error\"");
    assertThat(StreamProbe.openRequestStreams(http.endpoint)).isZero();
    assertThat(
            RawHttpClient.describe(
                RawHttpClient.json(RawHttpClient.body(client.call(6, "quiet", null)))))
        .isEqualTo("result 6 ok");
  }

  @Test
  void hundredsOfCancelledCallsGiveBackEveryStreamAndDescriptor() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd");
    int calls = Integer.getInteger("herald.test.cancelledCalls", 500); // -D... for a longer run
    // Warm up the client's connection pool and the server's threads.
    for (int i = 0; i < 5; i++) {
      assertThat(
              RawHttpClient.describe(
                  RawHttpClient.json(RawHttpClient.body(client.call(1_000 + i, "quiet", null)))))
          .isEqualTo("result " + (1_000 + i) + " ok");
    }
    // A just-answered call's stream is let go right after its answer is written: wait for that.
    waitFor(
        () -> StreamProbe.openRequestStreams(http.endpoint) == 0,
        "no request stream open before the loop");
    long fdsBefore = openDescriptors();
    long heapBefore = heapAfterGc();
    int streamsBefore = 0;

    List<CompletableFuture<Void>> ends = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      ends.add(cancelOne(10_000 + i));
    }
    boolean allEnded =
        waitUntil(
            () ->
                ends.stream().allMatch(CompletableFuture::isDone)
                    && StreamProbe.openRequestStreams(http.endpoint) == streamsBefore
                    // a few more pooled client connections (two descriptors each) are fine; one per
                    // call is not
                    && openDescriptors() <= fdsBefore + 16,
            Duration.ofSeconds(30));
    long fdsAfter = openDescriptors();
    int streamsAfter = StreamProbe.openRequestStreams(http.endpoint);
    long ended = ends.stream().filter(CompletableFuture::isDone).count();
    System.out.printf(
        "cancel loop: %d calls; descriptors %d -> %d; open request streams %d -> %d; bodies ended"
            + " %d; heap after GC (server and client) %d KiB -> %d KiB%n",
        calls,
        fdsBefore,
        fdsAfter,
        streamsBefore,
        streamsAfter,
        ended,
        heapBefore / 1024,
        heapAfterGc() / 1024);

    assertThat(allEnded)
        .as(
            "descriptors %d -> %d, open request streams %d -> %d, bodies ended %d of %d",
            fdsBefore, fdsAfter, streamsBefore, streamsAfter, ended, calls)
        .isTrue();
    // The session still serves, ids included.
    assertThat(
            RawHttpClient.describe(
                RawHttpClient.json(RawHttpClient.body(client.call(10_000, "quiet", null)))))
        .isEqualTo("result 10000 ok");
  }

  /** Starts a slow call, waits for its first progress, cancels it; the future completes at the body's end. */
  private CompletableFuture<Void> cancelOne(int id) throws Exception {
    HttpResponse<Stream<String>> call = client.call(id, "slow", "p" + id);
    assertThat(call.statusCode()).isEqualTo(200);
    SseReader stream = new SseReader(call.body());
    assertThat(RawHttpClient.describe(firstMessage(stream).json()))
        .isEqualTo("progress p" + id + " 1");
    assertThat(cancel(id)).isEqualTo(202);
    return CompletableFuture.runAsync(
        () -> {
          try (stream) {
            while (stream.next(Duration.ofSeconds(60)) != null) {
              // drain
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        r -> Thread.ofVirtual().start(r));
  }

  private int cancel(int id) throws Exception {
    HttpResponse<Stream<String>> r =
        client.post(
            "{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':"
                + id
                + "}}");
    RawHttpClient.body(r);
    return r.statusCode();
  }

  /** The first event that carries a message (skipping a priming event). */
  private static Event firstMessage(SseReader stream) throws InterruptedException {
    Event e = stream.event();
    return e.priming() ? stream.event() : e;
  }

  /** Heap used after a full GC (for the printed figures of the long runs; not asserted). */
  static long heapAfterGc() {
    System.gc();
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  static long openDescriptors() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    assertThat(waitUntil(condition, Duration.ofSeconds(10))).as(what).isTrue();
  }

  static boolean waitUntil(BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      Thread.sleep(5); // polling a condition, bounded by the deadline
    }
    return true;
  }
}
