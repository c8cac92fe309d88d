package dev.herald.http;

import dev.herald.server.McpServer;
import dev.herald.session.CountingEventListener;
import dev.herald.testing.RawHttpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * A real {@link McpHttpServer} on 127.0.0.1:0 serving an {@link McpServer} with test tools, and
 * a raw client on the JDK {@link HttpClient}.
 */
final class Fixture implements AutoCloseable {
  final McpServer mcp;

  /** Every event of every session the server had (one listener shared by all). */
  final CountingEventListener events = new CountingEventListener();

  final McpHttpServer http;
  final CyclicBarrier lockstep = new CyclicBarrier(2);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicBoolean holdCancelled = new AtomicBoolean();
  final CountDownLatch holdFinished = new CountDownLatch(1);

  Fixture() {
    this(b -> b);
  }

  Fixture(UnaryOperator<McpHttpServer.Builder> settings) {
    mcp =
        McpServer.builder()
            .eventListener(events)
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .logRateLimit(100_000, 100_000)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("lockstep")
                    .description("Three progress steps, in step with another call")
                    .build(),
                call -> {
                  for (int i = 1; i <= 3; i++) {
                    call.context().progress().report(i, 3.0, null);
                    lockstep.await(10, TimeUnit.SECONDS);
                  }
                  return CallToolResult.text("done " + call.context().requestId());
                })
            .tool(
                Tool.builder("chatty").description("Logs, reports progress, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  call.context().progress().report(1, null, null);
                  return CallToolResult.text("chatted");
                })
            .tool(
                Tool.builder("reconnect")
                    .description("Closes its own SSE stream, then answers")
                    .build(),
                call -> {
                  call.context().pollStream();
                  release.await(10, TimeUnit.SECONDS);
                  return CallToolResult.text("reconnected");
                })
            .tool(
                Tool.builder("hold").description("Waits for the test").build(),
                call -> {
                  try {
                    release.await(10, TimeUnit.SECONDS);
                  } finally {
                    holdCancelled.set(call.context().cancellation().isCancelled());
                    holdFinished.countDown();
                  }
                  return CallToolResult.text("held");
                })
            .build();
    http = settings.apply(McpHttpServer.builder().server(mcp)).build().start();
  }

  Client client() {
    return new Client(http.uri());
  }

  void addTool(String name) {
    mcp.addTool(Tool.builder(name).description("added").build(), call -> CallToolResult.text(name));
  }

  @Override
  public void close() {
    release.countDown();
    http.close();
  }

  /** The shared raw Streamable HTTP client, under the name these tests use. */
  static final class Client extends RawHttpClient {
    Client(URI uri) {
      super(uri);
    }
  }
}
