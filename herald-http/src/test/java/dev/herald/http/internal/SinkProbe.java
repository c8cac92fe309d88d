package dev.herald.http.internal;

/** Test-only view of a connection's write loop, for the tests of {@code dev.herald.http}. */
public final class SinkProbe {
  private SinkProbe() {}

  /** Whether a write to this connection is outstanding (its client has not taken it yet). */
  public static boolean writePending(SseSink sink) {
    return sink.pendingSinceNanos() >= 0;
  }
}
