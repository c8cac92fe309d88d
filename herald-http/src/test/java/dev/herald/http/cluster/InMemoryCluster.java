package dev.herald.http.cluster;

import dev.herald.http.ClusterMember;
import dev.herald.http.internal.ClusterHost;
import dev.herald.http.internal.ClusterSeam;
import dev.herald.http.internal.ClusterSeams;
import dev.herald.internal.server.ClusterAccess;
import dev.herald.internal.server.ServerWideListener;
import dev.herald.internal.server.SessionState;
import dev.herald.wire.LoggingLevel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A cluster whose shared state is a map in this JVM: the HTTP layer's cluster seams without Redis,
 * so their contract is tested on its own (docs/scale-out.md). Delivery between nodes is direct and
 * synchronous.
 */
final class InMemoryCluster {
  final Map<String, ClusterSeam.SessionRecord> directory = new ConcurrentHashMap<>();
  final List<Node> nodes = new CopyOnWriteArrayList<>();

  static {
    ClusterSeams.register(Node.class, n -> n);
  }

  Node node(String id) {
    Node n = new Node(id);
    nodes.add(n);
    return n;
  }

  final class Node implements ClusterMember, ClusterSeam {
    final String id;
    volatile ClusterHost host;

    Node(String id) {
      this.id = id;
    }

    @Override
    public String nodeId() {
      return id;
    }

    private List<Node> others() {
      return nodes.stream().filter(n -> n != this && n.host != null).toList();
    }

    @Override
    public void attach(ClusterHost host) {
      this.host = host;
      ClusterAccess.get()
          .observe(
              host.server(),
              new ServerWideListener() {
                @Override
                public void listChanged(String area) {
                  others()
                      .forEach(n -> ClusterAccess.get().applyListChanged(n.host.server(), area));
                }

                @Override
                public void resourceUpdated(String uri) {
                  others()
                      .forEach(n -> ClusterAccess.get().applyResourceUpdated(n.host.server(), uri));
                }

                @Override
                public void logged(LoggingLevel level, ObjectNode params) {
                  others()
                      .forEach(n -> ClusterAccess.get().applyLog(n.host.server(), level, params));
                }
              });
    }

    @Override
    public void detach(ClusterHost host) {
      this.host = null;
    }

    @Override
    public CompletableFuture<Optional<SessionRecord>> lookup(String sessionId) {
      return CompletableFuture.completedFuture(Optional.ofNullable(directory.get(sessionId)));
    }

    @Override
    public CompletableFuture<?> stateChanged(
        String sessionId, SessionState state, @Nullable String homeNode, long claimedAt) {
      directory.compute(
          sessionId,
          (k, old) ->
              homeNode != null || old == null
                  ? new SessionRecord(state, homeNode != null ? homeNode : id, claimedAt)
                  : new SessionRecord(state, old.homeNode(), old.homeClaimedAt()));
      others().forEach(n -> n.host.refreshed(sessionId, state, homeNode, claimedAt));
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void relay(String sessionId, String homeNode, byte[] json) {
      for (Node n : nodes) {
        if (n.id.equals(homeNode) && n.host != null) {
          n.host.relayed(sessionId, json);
        }
      }
    }

    @Override
    public void forward(String sessionId, byte[] json) {
      others().forEach(n -> n.host.forwarded(sessionId, json));
    }

    @Override
    public void ended(String sessionId) {
      directory.remove(sessionId);
      others().forEach(n -> n.host.ended(sessionId));
    }
  }
}
