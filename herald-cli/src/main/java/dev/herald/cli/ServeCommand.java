package dev.herald.cli;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import dev.herald.redis.RedisCluster;
import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.server.TaskSettings;
import dev.herald.session.EventListener;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code herald serve}: the demo fixture (docs/fixture.md) for MCP Inspector, Claude
 * Desktop or any host, over stdio (the default) or Streamable HTTP with {@code --port}.
 */
@Command(
    name = "serve",
    description = "Serve the demo fixture to any MCP host, over stdio or Streamable HTTP.",
    mixinStandardHelpOptions = true)
final class ServeCommand implements Callable<Integer> {
  static final class Mode {
    @Option(names = "--stdio", description = "Serve over stdin/stdout (the default).")
    boolean stdio;

    @Option(
        names = "--port",
        paramLabel = "N",
        description = "Serve Streamable HTTP on this port (0 picks a free one).")
    Integer port;
  }

  @ArgGroup(exclusive = true)
  Mode mode;

  @Spec CommandSpec spec;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "Address to bind with --port (default ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--path",
      defaultValue = "/mcp",
      description = "The MCP endpoint with --port (default ${DEFAULT-VALUE}).")
  String path;

  @Option(
      names = "--allow-origin",
      paramLabel = "ORIGIN",
      description = "Also accept requests with this Origin (repeatable; '*' accepts any).")
  String[] origins = {};

  @Option(
      names = "--allow-host",
      paramLabel = "HOST",
      description =
          "Also accept requests whose Host header is this, as name:port (repeatable; '*' accepts"
              + " any): behind a load balancer, the name clients use.")
  String[] hosts = {};

  @Option(
      names = "--max-sessions",
      paramLabel = "N",
      description =
          "With --port: most open sessions on this server; an initialize beyond it is refused"
              + " with 503 (default 1024).")
  @Nullable Integer maxSessions;

  @Option(
      names = "--max-sessions-per-client",
      paramLabel = "N",
      description =
          "With --port: most open sessions one client address may hold; one beyond it is refused"
              + " with 429 (default 64). Behind a load balancer every client has the balancer's"
              + " address: raise it there.")
  @Nullable Integer maxSessionsPerClient;

  @Option(
      names = "--redis",
      paramLabel = "URI",
      description =
          "With --port: join the cluster of nodes that share this Redis (redis://host:port), so"
              + " any node behind a load balancer serves any session, streams resume on any node"
              + " and tasks are kept in Redis (docs/scale-out.md).")
  java.net.URI redis;

  /** The values of {@code --eras}. */
  enum Eras {
    dual(ServedEras.DUAL),
    modern(ServedEras.MODERN_ONLY),
    handshake(ServedEras.HANDSHAKE_ONLY);

    final ServedEras served;

    Eras(ServedEras served) {
      this.served = served;
    }
  }

  @Option(
      names = "--eras",
      paramLabel = "ERAS",
      defaultValue = "dual",
      description =
          "Protocol eras to serve: dual (2026-07-28 and the handshake; the default), modern"
              + " (2026-07-28 only) or handshake (2025-11-25 and before only).")
  Eras eras = Eras.dual;

  /**
   * The command for {@code serve}, {@code serve --stdio}, either with {@code --eras E} or {@code
   * --eras=E}, read without picocli (whose model costs a server spawned on demand a good part of its
   * start-up); {@code null} for anything else, which picocli parses as usual.
   */
  static @Nullable ServeCommand plainStdio(String... args) {
    if (args.length == 0 || !args[0].equals("serve")) {
      return null;
    }
    ServeCommand c = new ServeCommand();
    boolean stdio = false;
    boolean eras = false;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      String value = null;
      if (a.equals("--stdio") && !stdio) {
        stdio = true;
      } else if (a.equals("--eras") && !eras && i + 1 < args.length) {
        value = args[++i];
      } else if (a.startsWith("--eras=") && !eras) {
        value = a.substring("--eras=".length());
      } else {
        return null;
      }
      if (value != null) {
        eras = true;
        switch (value) {
          case "dual" -> c.eras = Eras.dual;
          case "modern" -> c.eras = Eras.modern;
          case "handshake" -> c.eras = Eras.handshake;
          default -> {
            return null; // picocli says what is wrong
          }
        }
      }
    }
    return c;
  }

  /** How long a node starting with {@code --redis} keeps trying to reach Redis. */
  static final java.time.Duration REDIS_WAIT = java.time.Duration.ofSeconds(60);

  /**
   * Joins the cluster, trying again for {@link #REDIS_WAIT} while Redis cannot be reached (a node
   * started beside Redis, or on a busy machine, may try before Redis answers).
   */
  private static RedisCluster joinCluster(java.net.URI uri) throws InterruptedException {
    try {
      return RedisCluster.connect(
          uri,
          REDIS_WAIT,
          e ->
              System.err.println(
                  "herald: Redis not reachable yet (" + e.getMessage() + "); retrying"));
    } catch (IllegalStateException e) {
      if (Thread.interrupted()) { // stopped while waiting (Ctrl-C): as an interrupted sleep
        InterruptedException stopped = new InterruptedException("interrupted while joining");
        stopped.initCause(e);
        throw stopped;
      }
      throw e;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (mode == null || mode.port == null) {
      DemoFixture.server(EventListener.NONE, eras.served).serveStdio();
      return 0;
    }
    for (Integer limit : new Integer[] {maxSessions, maxSessionsPerClient}) {
      if (limit != null && limit < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "--max-sessions and --max-sessions-per-client must be at least 1, was " + limit);
      }
    }
    RedisCluster cluster = redis == null ? null : joinCluster(redis);
    // A cluster node keeps its tasks in Redis: readable from every node, and failed by the others
    // when this node dies.
    McpServer server =
        DemoFixture.server(
            EventListener.NONE,
            eras.served,
            cluster == null
                ? TaskSettings.defaults()
                : TaskSettings.builder().store(cluster.stores()::taskStore).build());
    McpHttpServer.Builder builder =
        McpHttpServer.builder()
            .server(server)
            .host(host)
            .port(mode.port)
            .path(path)
            .allowedOrigins(origins)
            .allowedHosts(hosts);
    if (maxSessions != null) {
      builder.maxSessions(maxSessions);
    }
    if (maxSessionsPerClient != null) {
      builder.maxSessionsPerClient(maxSessionsPerClient);
    }
    if (cluster != null) {
      builder.cluster(cluster);
    }
    McpHttpServer http = builder.build().start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  http.close();
                  server.close();
                  if (cluster != null) {
                    cluster.close();
                  }
                  stopped.countDown();
                },
                "herald-serve-shutdown"));
    System.err.println(
        "herald: serving the demo fixture on "
            + http.uri()
            + " (legacy HTTP+SSE on "
            + http.legacySseUri()
            + ")"
            + (cluster == null ? "" : " as cluster node " + cluster.nodeId())
            + "; Ctrl-C stops");
    stopped.await();
    return 0;
  }
}
