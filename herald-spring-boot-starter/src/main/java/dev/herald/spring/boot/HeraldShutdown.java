package dev.herald.spring.boot;

import dev.herald.http.servlet.McpServlet;
import dev.herald.server.McpServer;
import java.time.Duration;
import org.springframework.context.SmartLifecycle;

/**
 * Herald's part of the application's graceful shutdown. Design note: Spring stops lifecycle beans
 * by phase, highest first, before it destroys beans; the web server's graceful shutdown runs at
 * {@code DEFAULT_PHASE - 1024} and the web server stops at {@code DEFAULT_PHASE - 2048} (the same
 * in Spring Boot 3.5 and 4.0). This bean stops at {@link #PHASE}, before both, so that the
 * container's graceful shutdown never waits on an MCP stream that would stay open until its
 * timeout:
 *
 * <ol>
 *   <li>new requests are refused ({@link InFlightRequests}) and {@code subscriptions/listen}
 *       streams are ended as the 2026-07-28 subscriptions pattern asks ({@code
 *       McpServer.endListens});
 *   <li>calls in progress get up to {@code herald.shutdown-timeout} to finish; the handlers
 *       still running then are interrupted, and each call is answered with {@code -32603 Server
 *       is shutting down} ({@link InFlightRequests#cancelRunning});
 *   <li>the answers are written out ({@link OpenExchanges}: each POST's async cycle completes),
 *       for at most {@link #GRACE};
 *   <li>the servlet's endpoint is closed: every session ends, and every standing SSE stream ends
 *       with a normal end of response.
 * </ol>
 *
 * The work runs on its own thread and reports to Spring's callback, so Spring's {@code
 * spring.lifecycle.timeout-per-shutdown-phase} bounds it as well.
 */
final class HeraldShutdown implements SmartLifecycle {
  /** Before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

  /** How long cancelled calls get to answer, and answers to be written, before sessions end. */
  static final Duration GRACE = Duration.ofSeconds(5);

  private static final System.Logger LOG = System.getLogger("dev.herald.spring.boot");

  private final McpServlet servlet;
  private final McpServer server;
  private final InFlightRequests inFlight;
  private final OpenExchanges exchanges;
  private final Duration timeout;

  /** Written by Spring's lifecycle thread, read by any. */
  private volatile boolean running;

  HeraldShutdown(
      McpServlet servlet,
      McpServer server,
      InFlightRequests inFlight,
      OpenExchanges exchanges,
      Duration timeout) {
    this.servlet = servlet;
    this.server = server;
    this.inFlight = inFlight;
    this.exchanges = exchanges;
    this.timeout = timeout;
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    shutdown();
  }

  @Override
  public void stop(Runnable callback) {
    Thread.ofVirtual()
        .name("herald-shutdown")
        .start(() -> {
          try {
            shutdown();
          } finally {
            callback.run();
          }
        });
  }

  private void shutdown() {
    if (!running) {
      return;
    }
    running = false;
    server.endListens();
    try {
      if (!inFlight.drain(timeout)) {
        LOG.log(
            System.Logger.Level.INFO,
            "Herald: {0} MCP request(s) still running after {1}; cancelling them",
            inFlight.running(),
            timeout);
        inFlight.cancelRunning();
        inFlight.awaitIdle(GRACE);
      }
      exchanges.awaitNone(GRACE); // the answers are written
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      servlet.destroy(); // ends every session; idempotent, so the container's own call is harmless
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
