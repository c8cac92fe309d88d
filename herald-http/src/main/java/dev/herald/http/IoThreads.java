package dev.herald.http;

/**
 * The threads that accept connections, read requests and complete writes for an {@link
 * McpHttpServer} (Jetty's acceptor, selector and the tasks they run); see {@link
 * McpHttpServer.Builder#ioThreads}. Request handlers run on virtual threads of their own either
 * way, and no handler ever runs on one of these threads.
 */
public enum IoThreads {
  /**
   * Virtual threads (the default on Java 25 and later). Handing a request to its handler's virtual
   * thread is then a switch between virtual threads on one carrier, not a wake-up of another OS
   * thread: about a quarter less server CPU per call (docs/benchmarks.md). The reading of requests
   * shares the carrier threads with the handlers, so handlers that keep every carrier busy with
   * computation (as many as the machine has cores, each computing without blocking) delay the
   * reading of further requests, a client's cancellation among them, until one of them blocks or
   * ends.
   *
   * <p>Needs Java 25 or later: before it, a virtual thread waiting in a selector (which the JDK
   * does inside a {@code synchronized} block) holds its carrier thread for as long as it waits,
   * so Jetty's selector would take a carrier away from the handlers for good.
   */
  VIRTUAL,

  /**
   * Platform threads (the default before Java 25; a pool of 2 to 64 daemon threads named {@code
   * herald-http-N}). Requests, cancellations among them, are read by the operating system's
   * scheduling even while CPU-bound handlers occupy every carrier thread; each call costs more CPU.
   * Choose this when tools compute for long stretches without blocking and must stay cancellable.
   */
  PLATFORM;

  /** The first Java release on which {@link #VIRTUAL} is offered. */
  static final int VIRTUAL_SINCE = 25;

  /** {@link #VIRTUAL} on Java {@value #VIRTUAL_SINCE} and later, else {@link #PLATFORM}. */
  static IoThreads defaultFor(Runtime.Version version) {
    return version.feature() >= VIRTUAL_SINCE ? VIRTUAL : PLATFORM;
  }
}
