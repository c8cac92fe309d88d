package dev.herald.client;

import dev.herald.client.McpClient.SessionRestart;
import dev.herald.internal.session.SessionEngine;
import dev.herald.transport.Transport;
import dev.herald.transport.http.SessionExpiredException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Replaces a session the server lost (MCP 2025-11-25 basic/transports §Session Management: a
 * {@code 404} to a request carrying {@code Mcp-Session-Id} means the client MUST start a new
 * session with a fresh {@code initialize}).
 *
 * <p>Design note. Each session the client brings up is {@linkplain #watch watched}; when one ends
 * with {@link SessionExpiredException} and the host is not closing the client, a virtual thread
 * opens a new session on a fresh transport from the {@link ClientSettings#transports() settings
 * frozen at connect}, lets the client adopt it (restore subscriptions and the log level, mark the
 * caches stale), and tells the restart listeners how it went. The new session is watched in turn.
 */
final class SessionRestarter {
  /** What the restarter needs from the client it restarts. */
  interface Host {
    /** A new session over {@code transport}, handshake done. */
    SessionEngine open(Transport transport) throws InterruptedException;

    /** Makes {@code next} the client's session and restores on it what the host set up. */
    void adopt(SessionEngine next) throws InterruptedException;

    /** Whether the host is closing the client (then a lost session is not replaced). */
    boolean closing();

    /** Runs {@code task} on the client's listener thread. */
    void tell(Runnable task);
  }

  private final Supplier<Transport> transports;
  private final List<Consumer<SessionRestart>> listeners;
  private final Host host;

  SessionRestarter(
      Supplier<Transport> transports, List<Consumer<SessionRestart>> listeners, Host host) {
    this.transports = transports;
    this.listeners = List.copyOf(listeners);
    this.host = host;
  }

  /** Replaces {@code engine}'s session by a new one if the server loses it. */
  void watch(SessionEngine engine) {
    engine
        .closed()
        .whenComplete((cause, err) -> {
          if (cause instanceof SessionExpiredException && !host.closing()) {
            Thread.ofVirtual().name("herald-client-restart").start(() -> restart(cause));
          }
        });
  }

  private void restart(Throwable cause) {
    SessionRestart event;
    try {
      host.adopt(host.open(transports.get()));
      event = new SessionRestart(cause, true, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      event = new SessionRestart(cause, false, e);
    } catch (RuntimeException e) {
      event = new SessionRestart(cause, false, e);
    }
    SessionRestart told = event;
    host.tell(() -> listeners.forEach(l -> l.accept(told)));
  }
}
