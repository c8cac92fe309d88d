package dev.herald.redis;

import dev.herald.http.ClusterMember;
import dev.herald.http.EndpointBuilder;
import dev.herald.http.EventStore;
import dev.herald.http.internal.ClusterHost;
import dev.herald.http.internal.ClusterSeam;
import dev.herald.http.internal.ClusterSeams;
import dev.herald.internal.server.ClusterAccess;
import dev.herald.internal.server.ServerWideListener;
import dev.herald.internal.server.SessionState;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes a Herald HTTP server one node of a cluster behind a load balancer, with no sticky
 * sessions, sharing its sessions through Redis (docs/scale-out.md; MCP 2025-11-25
 * basic/transports, "Session Management").
 *
 * <p>Any node serves any request of any session: a session id this node does not know is read
 * from the session directory in Redis and served here. Only what must reach a stream held by
 * another node crosses nodes: an unsolicited message for a session whose standing GET stream is
 * on another node, a cancellation or an answer for a request running on another node. A list
 * change, a resource update or a server-wide log made on one node reaches every session of every
 * node once, from the node holding its stream. {@code DELETE} on any node ends the session on all.
 *
 * {@snippet :
 * RedisCluster cluster = RedisCluster.connect(URI.create("redis://127.0.0.1:6379"));
 * McpHttpServer http =
 *     McpHttpServer.builder().server(server).cluster(cluster).build().start();
 * }
 *
 * <p>Every node must register the same tools, resources and prompts. When Redis cannot be
 * reached, a request for a session this node does not hold is answered 503 with a JSON-RPC
 * -32603 error within a few seconds; requests for sessions it holds go on; the connection comes
 * back by itself with Redis.
 *
 * <p>Thread-safe. {@link #close} leaves the cluster and closes the connection.
 */
public final class RedisCluster implements ClusterMember, AutoCloseable {
  static {
    ClusterSeams.register(RedisCluster.class, c -> c.seam);
  }

  private final RedisStores stores;
  private final SessionDirectory directory;
  private final Seam seam = new Seam();
  private final ExecutorService lookups =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("herald-redis-lookup").factory());
  private volatile @Nullable ClusterHost host;
  private final ClusterBus bus;

  /** Checks every {@link #WATCH_INTERVAL} that Redis still holds the cluster's state. */
  private final Thread watcher;

  private volatile boolean closed;

  /** The epoch this node last recorded its sessions under (watcher thread only after start). */
  private String epoch;

  static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

  private RedisCluster(RedisStores stores, Duration sessionTtl) {
    this.stores = stores;
    this.directory = new SessionDirectory(stores.redis(), sessionTtl);
    this.bus = new ClusterBus(stores.redis(), stores.node().id(), this::received);
    this.epoch = directory.epoch();
    this.watcher = Thread.ofVirtual().name("herald-redis-watch").start(this::watch);
  }

  /**
   * Redis restarted empty (it keeps no data on disk, or failed over to an empty replica): this node
   * records its sessions again, so the others find them. One {@code SET NX} per interval.
   */
  private void watch() {
    while (!closed) {
      try {
        Thread.sleep(WATCH_INTERVAL);
        ClusterHost h = host;
        String now = directory.epoch();
        if (h != null && !now.equals(epoch)) {
          long at = System.currentTimeMillis();
          h.homeSessions().forEach((id, state) -> directory.write(id, state, nodeId(), at));
          epoch = now;
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        // Redis is away: try again next time
      }
    }
  }

  /**
   * Joins the cluster whose Redis is at {@code uri} ({@code redis://host:port}), with the
   * default key prefix ({@code herald:}) and a random node id.
   *
   * @throws RedisUnavailableException if Redis does not answer
   */
  public static RedisCluster connect(URI uri) {
    RedisStores stores = RedisStores.connect(uri.toString());
    try {
      return connect(stores);
    } catch (RuntimeException e) {
      stores.close(); // joining failed half-way: give the connection back
      throw e;
    }
  }

  /**
   * Joins the cluster whose Redis is at {@code uri} as {@link #connect(URI)} does, trying again
   * (once a second, each try on a fresh connection) while Redis cannot be reached or the connection
   * is lost during the join, for at most {@code wait}: a node started beside Redis, or on a busy
   * machine, may try before Redis answers or lose its first connection. Each failed try is logged
   * at INFO.
   *
   * @throws RedisUnavailableException if Redis still cannot be reached after {@code wait}
   * @throws IllegalStateException if interrupted while waiting (the interrupt status is kept)
   */
  public static RedisCluster connect(URI uri, Duration wait) {
    System.Logger log = System.getLogger(RedisCluster.class.getName());
    return connect(
        uri,
        wait,
        e ->
            log.log(
                System.Logger.Level.INFO,
                "Redis not reachable yet ({0}); retrying",
                e.getMessage()));
  }

  /**
   * As {@link #connect(URI, Duration)}, telling {@code retrying} of each failed try before the
   * next one (a command-line tool prints it, so its user sees why the node is not up yet).
   *
   * @throws RedisUnavailableException if Redis still cannot be reached after {@code wait}
   * @throws IllegalStateException if interrupted while waiting (the interrupt status is kept)
   */
  public static RedisCluster connect(
      URI uri, Duration wait, Consumer<? super RedisUnavailableException> retrying) {
    Objects.requireNonNull(retrying, "retrying");
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      try {
        return connect(uri);
      } catch (RedisUnavailableException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        retrying.accept(e);
        try {
          Thread.sleep(Math.min(1000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while joining the Redis cluster", e);
        }
      }
    }
  }

  /**
   * Joins the cluster on an existing Redis connection (its prefix and node id), whose event and
   * task stores the node may use as well. Closing the cluster closes {@code stores}.
   *
   * @throws RedisUnavailableException if Redis does not answer
   */
  public static RedisCluster connect(RedisStores stores) {
    return new RedisCluster(Objects.requireNonNull(stores, "stores"), Duration.ofHours(24));
  }

  /** Makes {@code builder}'s server a node of this cluster; the same as {@code builder.cluster(this)}. */
  public <B extends EndpointBuilder<B>> B apply(B builder) {
    return builder.cluster(this);
  }

  @Override
  public String nodeId() {
    return stores.node().id();
  }

  /** The Redis connection and stores under this cluster (event store, task stores, liveness). */
  public RedisStores stores() {
    return stores;
  }

  @Override
  public void close() {
    closed = true;
    watcher.interrupt();
    host = null;
    bus.close();
    lookups.shutdown();
    stores.close();
  }

  // ---------------------------------------------------------------- messages from other nodes

  private void received(String kind, byte[] body) {
    ClusterHost h = host;
    if (h == null) {
      return;
    }
    switch (kind) {
      case "relay" -> split(body, h::relayed);
      case "forward" -> split(body, h::forwarded);
      case "ended" -> h.ended(Redis.string(body));
      case "state" ->
          split(
              body,
              (session, rest) -> {
                // home ("" for none) \n claim date (ms) \n state
                int nl = ClusterBus.indexOf(rest, 0);
                int nl2 = nl < 0 ? -1 : ClusterBus.indexOf(rest, nl + 1);
                if (nl2 < 0) {
                  return;
                }
                String home = new String(rest, 0, nl, StandardCharsets.UTF_8);
                try {
                  long at =
                      Long.parseLong(
                          new String(rest, nl + 1, nl2 - nl - 1, StandardCharsets.UTF_8));
                  h.refreshed(
                      session,
                      SessionStateCodec.decode(Arrays.copyOfRange(rest, nl2 + 1, rest.length)),
                      home.isEmpty() ? null : home,
                      at);
                } catch (IllegalArgumentException e) {
                  // another version's record: the next lookup reads it
                }
              });
      case "follow" -> fields(body, 3, f -> h.followRequested(f[0], f[1], f[2]));
      case "following" ->
          fields(
              body,
              4,
              f ->
                  h.following(
                      f[0], f[1], Long.parseLong(f[2]), ClusterSeam.FollowState.valueOf(f[3])));
      case "event" -> {
        // session \n stream \n seq \n last (1/0) \n json
        int[] at = new int[4];
        int from = 0;
        for (int i = 0; i < 4; i++) {
          at[i] = ClusterBus.indexOf(body, from);
          if (at[i] < 0) {
            return;
          }
          from = at[i] + 1;
        }
        h.streamEvent(
            new String(body, 0, at[0], StandardCharsets.UTF_8),
            new String(body, at[0] + 1, at[1] - at[0] - 1, StandardCharsets.UTF_8),
            Long.parseLong(new String(body, at[1] + 1, at[2] - at[1] - 1, StandardCharsets.UTF_8)),
            Arrays.copyOfRange(body, at[3] + 1, body.length),
            body[at[2] + 1] == '1');
      }
      case "unfollowed" -> fields(body, 2, f -> h.unfollowed(f[0], f[1]));
      case "list" -> ClusterAccess.get().applyListChanged(h.server(), Redis.string(body));
      case "resource" -> ClusterAccess.get().applyResourceUpdated(h.server(), Redis.string(body));
      case "log" ->
          split(
              body,
              (level, params) ->
                  LoggingLevel.parse(level)
                      .ifPresent(l -> {
                        if (McpJson.mapper().readTree(params) instanceof ObjectNode p) {
                          ClusterAccess.get().applyLog(h.server(), l, p);
                        }
                      }));
      default -> {
        // a kind from a newer node: ignored
      }
    }
  }

  /** Calls {@code then} with the {@code n} newline-separated text fields of {@code body}. */
  private static void fields(byte[] body, int n, java.util.function.Consumer<String[]> then) {
    String[] f = new String(body, StandardCharsets.UTF_8).split("\n", -1);
    if (f.length == n) {
      then.accept(f);
    }
  }

  private static void split(byte[] body, java.util.function.BiConsumer<String, byte[]> then) {
    int nl = ClusterBus.indexOf(body, 0);
    if (nl > 0) {
      then.accept(
          new String(body, 0, nl, java.nio.charset.StandardCharsets.UTF_8),
          java.util.Arrays.copyOfRange(body, nl + 1, body.length));
    }
  }

  // ---------------------------------------------------------------- the endpoint's seam

  private final class Seam implements ClusterSeam {
    @Override
    public String nodeId() {
      return RedisCluster.this.nodeId();
    }

    @Override
    public EventStore eventStore() {
      return stores.eventStore(); // every stream's events, replayable by any node
    }

    @Override
    public void attach(ClusterHost h) {
      host = h;
      ClusterAccess.get()
          .observe(
              h.server(),
              new ServerWideListener() {
                @Override
                public void listChanged(String area) {
                  bus.broadcast("list", Redis.bytes(area));
                }

                @Override
                public void resourceUpdated(String uri) {
                  bus.broadcast("resource", Redis.bytes(uri));
                }

                @Override
                public void logged(LoggingLevel level, ObjectNode params) {
                  bus.broadcast(
                      "log", ClusterBus.join(level.wire(), Redis.bytes(params.toString())));
                }
              });
    }

    @Override
    public void detach(ClusterHost h) {
      if (host == h) {
        host = null;
      }
    }

    @Override
    public CompletableFuture<Optional<SessionRecord>> lookup(String sessionId) {
      return CompletableFuture.supplyAsync(() -> directory.lookup(sessionId), lookups);
    }

    @Override
    public CompletableFuture<?> stateChanged(
        String sessionId, SessionState state, @Nullable String homeNode, long claimedAt) {
      // Written from the publishing thread, so the refresh of every node follows the write. A home
      // claim is dated when it is made: written or heard late, it does not undo a later claim.
      return bus.afterPublishes(() -> {
        SessionDirectory.Home home = directory.write(sessionId, state, homeNode, claimedAt);
        boolean lost = homeNode != null && !home.node().equals(homeNode);
        bus.broadcastNow(
            "state",
            ClusterBus.join(
                sessionId,
                ClusterBus.join(
                    homeNode == null || lost ? "" : homeNode,
                    ClusterBus.join(Long.toString(claimedAt), SessionStateCodec.encode(state)))));
        ClusterHost h = host;
        if (lost && h != null && !home.node().isEmpty()) {
          // a later claim holds the home: this node is not it
          h.refreshed(sessionId, state, home.node(), home.claimedAt());
        }
        return null;
      });
    }

    @Override
    public CompletableFuture<?> streamOpened(String sessionId, String streamId, byte[] failure) {
      byte[] record = ClusterBus.join(nodeId(), failure);
      return CompletableFuture.supplyAsync(
          () -> {
            stores.events().describe(sessionId, streamId, record);
            return null;
          },
          lookups);
    }

    @Override
    public CompletableFuture<Optional<StreamRecord>> stream(String sessionId, String streamId) {
      return CompletableFuture.supplyAsync(
          () -> {
            byte[] r = stores.events().description(sessionId, streamId);
            int nl = r == null ? -1 : ClusterBus.indexOf(r, 0);
            if (r == null || nl <= 0) {
              return Optional.<StreamRecord>empty();
            }
            return Optional.of(
                new StreamRecord(
                    new String(r, 0, nl, StandardCharsets.UTF_8),
                    new String(r, nl + 1, r.length - nl - 1, StandardCharsets.UTF_8)));
          },
          lookups);
    }

    @Override
    public void follow(String producer, String sessionId, String streamId) {
      bus.send(producer, "follow", Redis.bytes(sessionId + "\n" + streamId + "\n" + nodeId()));
    }

    @Override
    public void following(
        String follower, String sessionId, String streamId, long seq, FollowState state) {
      bus.send(
          follower,
          "following",
          Redis.bytes(sessionId + "\n" + streamId + "\n" + seq + "\n" + state.name()));
    }

    @Override
    public void streamEvent(
        String follower, String sessionId, String streamId, long seq, byte[] json, boolean last) {
      bus.send(
          follower,
          "event",
          ClusterBus.join(
              sessionId + "\n" + streamId + "\n" + seq + "\n" + (last ? "1" : "0"), json));
    }

    @Override
    public void unfollowed(String follower, String sessionId, String streamId) {
      bus.send(follower, "unfollowed", Redis.bytes(sessionId + "\n" + streamId));
    }

    @Override
    public boolean alive(String node) {
      return stores.node().isAlive(node);
    }

    @Override
    public void touched(String sessionId) {
      bus.afterPublishes(() -> {
        try {
          directory.touch(sessionId);
        } catch (RuntimeException e) {
          // Redis is away: the next use pushes it back
        }
        return null;
      });
    }

    @Override
    public void relay(String sessionId, String homeNode, byte[] json) {
      bus.send(homeNode, "relay", ClusterBus.join(sessionId, json));
    }

    @Override
    public void forward(String sessionId, byte[] json) {
      bus.broadcast("forward", ClusterBus.join(sessionId, json));
    }

    @Override
    public void ended(String sessionId) {
      bus.afterPublishes(() -> {
        try {
          directory.remove(sessionId);
        } catch (RuntimeException e) {
          // it expires with its TTL
        }
        bus.broadcastNow("ended", Redis.bytes(sessionId));
        return null;
      });
    }
  }
}
