package dev.herald.internal.server;

import dev.herald.server.McpServer;
import dev.herald.server.ServerSession;
import dev.herald.transport.Transport;
import dev.herald.wire.LoggingLevel;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server role's seams for scale-out (docs/scale-out.md), for Herald's own modules only.
 *
 * <p>Design note: as {@code EngineAccess}, the JDK's {@code SharedSecrets} pattern. {@code
 * McpServer} registers the implementation from its static initialiser; every method takes an
 * {@code McpServer} or a {@code ServerSession}, so the role is loaded (and registered) before any
 * call. Nothing here changes what a single node does: a session is its own home until told
 * otherwise, and a server with no {@link ServerWideListener} tells no one.
 *
 * <p>Thread-safe.
 */
public abstract class ClusterAccess {
  private static volatile @Nullable ClusterAccess instance;

  /** For the server role's static initialiser; once. */
  protected ClusterAccess() {}

  /**
   * Registers the implementation; once.
   *
   * @throws IllegalStateException if one is registered already
   */
  public static void register(ClusterAccess access) {
    Objects.requireNonNull(access, "access");
    if (instance != null) {
      throw new IllegalStateException("cluster access is registered already");
    }
    instance = access;
  }

  /** The implementation the server role registered. */
  public static ClusterAccess get() {
    ClusterAccess a = instance;
    if (a == null) {
      try { // load the role, whose static initialiser registers
        Class.forName(McpServer.class.getName(), true, ClusterAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      a = instance;
      if (a == null) {
        throw new IllegalStateException("the server role registered no cluster access");
      }
    }
    return a;
  }

  /** The session's state as it is now, or empty before its {@code initialize} was accepted. */
  public abstract java.util.Optional<SessionState> snapshot(ServerSession session);

  /**
   * Serves a session another node started: a new {@link ServerSession} on {@code transport},
   * already through its handshake as {@code state} says (no {@code initialize} is served on it),
   * and not its home ({@link #home(ServerSession, boolean)}) until told.
   */
  public abstract ServerSession restore(McpServer server, Transport transport, SessionState state);

  /**
   * Brings a session up to {@code state} as another node changed it (log level, subscriptions,
   * initialized). Does not call the session's state listener.
   */
  public abstract void refresh(ServerSession session, SessionState state);

  /**
   * Sets whether this node fans server-wide notifications out to {@code session} (list changes,
   * resource updates, server-wide logs): true on the node that holds its standing stream, false on
   * the others, so each session is told once across the cluster.
   */
  public abstract void home(ServerSession session, boolean home);

  /** Whether this node fans server-wide notifications out to {@code session}. */
  public abstract boolean home(ServerSession session);

  /**
   * Calls {@code listener} after each change of the session's state made on this node (its
   * handshake, {@code notifications/initialized}, {@code logging/setLevel}, a subscription);
   * replaces an earlier one.
   */
  public abstract void onStateChange(ServerSession session, Runnable listener);

  /** Tells {@code listener} of the server-wide notifications started on this node; replaces an earlier one. */
  public abstract void observe(McpServer server, ServerWideListener listener);

  /**
   * Another node's catalog of {@code area} ({@code tools}, {@code resources}, {@code prompts})
   * changed: this node's home sessions and listens are told after the debounce, as for a change
   * here.
   *
   * @throws IllegalArgumentException for an unknown area
   */
  public abstract void applyListChanged(McpServer server, String area);

  /** Another node updated {@code uri}: this node's home subscribers and listens are told. */
  public abstract int applyResourceUpdated(McpServer server, String uri);

  /** Another node logged server-wide: this node's home sessions whose gate admits it are told. */
  public abstract void applyLog(McpServer server, LoggingLevel level, ObjectNode params);
}
