package dev.herald.server;

import dev.herald.internal.server.ClusterAccess;
import dev.herald.internal.server.ServerWideListener;
import dev.herald.internal.server.SessionState;
import dev.herald.transport.Transport;
import dev.herald.wire.LoggingLevel;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server role's side of {@link ClusterAccess}: the scale-out seams (docs/scale-out.md), kept
 * out of the public API. Registered by {@link McpServer}'s static initialiser.
 */
final class ClusterSupport extends ClusterAccess {
  @Override
  public Optional<SessionState> snapshot(ServerSession session) {
    return session.clusterState();
  }

  @Override
  public ServerSession restore(McpServer server, Transport transport, SessionState state) {
    ServerSession session = server.connect(transport);
    session.home(false);
    session.restore(state);
    return session;
  }

  @Override
  public void refresh(ServerSession session, SessionState state) {
    session.restore(state);
  }

  @Override
  public void home(ServerSession session, boolean home) {
    session.home(home);
  }

  @Override
  public boolean home(ServerSession session) {
    return session.home();
  }

  @Override
  public void onStateChange(ServerSession session, Runnable listener) {
    session.stateListener(listener);
  }

  @Override
  public void observe(McpServer server, ServerWideListener listener) {
    server.serverWide = listener;
  }

  @Override
  public void applyListChanged(McpServer server, String area) {
    CatalogArea a;
    try {
      a = CatalogArea.valueOf(area.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown catalog area " + area, e);
    }
    server.applyCatalogChanged(a);
  }

  @Override
  public int applyResourceUpdated(McpServer server, String uri) {
    return server.applyResourceUpdated(uri);
  }

  @Override
  public void applyLog(McpServer server, LoggingLevel level, ObjectNode params) {
    server.applyLog(level, params);
  }
}
