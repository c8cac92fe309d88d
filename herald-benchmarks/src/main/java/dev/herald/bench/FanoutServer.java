package dev.herald.bench;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The child JVM of {@link FanoutHarness}: one server under test on 127.0.0.1 (any free port),
 * steered by lines on stdin, answering one line each on stdout.
 *
 * <ul>
 *   <li>{@code herald}: an {@link McpHttpServer} serving an {@link McpServer} with the given
 *       list-change debounce and session limit; {@code trigger k} is {@code addTool("tool-k")}.
 *   <li>{@code ceiling}: a hand-written Jetty 12 handler, with Herald's thread pool, one acceptor
 *       and one selector, that takes the same client traffic with the least work: a POST whose
 *       body names {@code initialize} gets a fixed JSON answer and a counter as {@code
 *       Mcp-Session-Id}, any other POST a 202; a GET gets an SSE response with {@code retry},
 *       kept by session id; DELETE ends that response. {@code trigger k} writes one fixed event,
 *       encoded once, to every kept response from the calling thread. No JSON parsing, session
 *       engine, event ids, store, queue or lock: the least work per message. Jetty's per-connection
 *       header-field cache is off ({@code HttpConfiguration.setHeaderCacheSize(0)}), the least
 *       memory per connection.
 * </ul>
 *
 * Commands: {@code clock} (nanoTime), {@code heap} (used heap after {@code System.gc()}, median
 * of three), {@code cpu} (process CPU nanoseconds), {@code trigger k}, {@code quit}. End of stdin
 * or the time limit ends the process.
 */
final class FanoutServer {
  private FanoutServer() {}

  /** {@code <herald|ceiling> <debounceMs> <maxSessions> <timeLimitSeconds> [redisUri]} */
  public static void main(String[] args) throws Exception {
    String target = args[0];
    int debounceMs = Integer.parseInt(args[1]);
    int maxSessions = Integer.parseInt(args[2]);
    long limitSeconds = Long.parseLong(args[3]);
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            Thread.sleep(limitSeconds * 1000 + 2_000);
            System.err.println("fanout child: time limit reached");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException ignored) {
            // not reached
          }
        });
    PrintStream out = System.out;
    String redis = args.length > 4 ? args[4] : null;
    Target t = target.equals("herald") ? new Herald(debounceMs, maxSessions, redis) : new Ceiling();
    out.println("PORT " + t.port());
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try {
      for (String line; (line = in.readLine()) != null; ) {
        String[] f = line.trim().split(" ", -1);
        switch (f[0]) {
          case "clock" -> out.println("CLOCK " + System.nanoTime());
          case "heap" -> out.println("HEAP " + usedHeapAfterGc());
          case "cpu" -> out.println("CPU " + processCpu());
          case "trigger" -> {
            long t0 = System.nanoTime();
            t.trigger(Integer.parseInt(f[1]));
            long t1 = System.nanoTime();
            out.println("TRIGGERED " + t0 + " " + (t1 - t0));
          }
          case "quit" -> {
            t.close();
            out.println("BYE");
            out.flush();
            System.exit(0);
          }
          default -> out.println("ERROR unknown command " + line);
        }
        out.flush();
      }
    } catch (Exception e) {
      out.println("ERROR " + e);
      out.flush();
      e.printStackTrace();
    }
    t.close();
    System.exit(0);
  }

  static long usedHeapAfterGc() throws InterruptedException {
    long[] v = new long[3];
    for (int i = 0; i < v.length; i++) {
      System.gc();
      Thread.sleep(200);
      v[i] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
    Arrays.sort(v);
    return v[1];
  }

  static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  interface Target {
    int port();

    void trigger(int k);

    void close();
  }

  /** Herald, as an application would run it. */
  static final class Herald implements Target {
    private final McpServer mcp;
    private final McpHttpServer http;
    private final dev.herald.redis.@org.jspecify.annotations.Nullable RedisCluster cluster;

    /** With {@code redis}, a node of the cluster on that Redis (docs/scale-out.md). */
    Herald(int debounceMs, int maxSessions, @org.jspecify.annotations.Nullable String redis) {
      this.mcp =
          McpServer.builder()
              .info("fanout-bench", "1")
              .listChangedDebounce(Duration.ofMillis(debounceMs))
              .tool(
                  Tool.builder("tool-0").description("present from the start").build(),
                  call -> CallToolResult.text("0"))
              .build();
      this.cluster =
          redis == null ? null : dev.herald.redis.RedisCluster.connect(java.net.URI.create(redis));
      McpHttpServer.Builder b =
          McpHttpServer.builder()
              .server(mcp)
              .maxSessions(maxSessions)
              .maxSessionsPerClient(maxSessions); // every session comes from 127.0.0.1
      if (cluster != null) {
        b.cluster(cluster);
      }
      String balancer = System.getProperty("fanout.allowHost");
      if (balancer != null) {
        b.allowedHosts(balancer); // behind a balancer, Host names the balancer
      }
      this.http = b.build().start();
    }

    @Override
    public int port() {
      return http.port();
    }

    @Override
    public void trigger(int k) {
      mcp.addTool(
          Tool.builder("tool-" + k).description("added by trigger " + k).build(),
          call -> CallToolResult.text("k"));
    }

    @Override
    public void close() {
      http.close();
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  /** The least possible work per message: one encoded event written to every kept response. */
  static final class Ceiling extends Handler.Abstract.NonBlocking implements Target {
    private static final byte[] RETRY = "retry: 1000\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INIT =
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{\"logging\":{},\"tools\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"ceiling\",\"version\":\"1\"}}}")
            .getBytes(StandardCharsets.UTF_8);
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, Stream> bySession = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Server server;
    private final ServerConnector connector;

    /** One kept SSE response; as a callback it only drops the stream when a write fails. */
    private final class Stream implements Callback {
      final Response response;
      final Callback done;

      Stream(Response response, Callback done) {
        this.response = response;
        this.done = done;
      }

      @Override
      public void failed(Throwable x) {
        bySession.values().remove(this);
        if (streams.remove(this)) {
          done.failed(x);
        }
      }
    }

    Ceiling() throws Exception {
      QueuedThreadPool threads = new QueuedThreadPool(64, 2);
      threads.setName("ceiling-http");
      threads.setDaemon(true);
      server = new Server(threads);
      HttpConfiguration config = new HttpConfiguration();
      config.setHeaderCacheSize(0);
      connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      server.addConnector(connector);
      server.setHandler(this);
      server.start();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String sid = request.getHeaders().get("Mcp-Session-Id");
      switch (request.getMethod()) {
        case "POST" -> {
          CompletableFuture<String> read = new CompletableFuture<>();
          Content.Source.asString(request, StandardCharsets.UTF_8, Promise.from(read));
          read.whenComplete((body, x) -> {
            if (x != null) {
              Response.writeError(request, response, callback, 400);
            } else if (body.contains("\"initialize\"")) {
              response.setStatus(200);
              response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
              response.getHeaders().put("Mcp-Session-Id", "c" + ids.incrementAndGet());
              response.write(true, ByteBuffer.wrap(INIT), callback);
            } else {
              response.setStatus(202);
              response.write(true, BufferUtil.EMPTY_BUFFER, callback);
            }
          });
          return true;
        }
        case "DELETE" -> {
          Stream s = sid == null ? null : bySession.remove(sid);
          if (s != null && streams.remove(s)) {
            s.response.write(true, BufferUtil.EMPTY_BUFFER, s.done);
          }
          response.setStatus(200);
          response.write(true, BufferUtil.EMPTY_BUFFER, callback);
          return true;
        }
        case "GET" -> {
          // below
        }
        default -> {
          Response.writeError(request, response, callback, 405);
          return true;
        }
      }
      Stream s = new Stream(response, callback);
      request.addIdleTimeoutListener(x -> false);
      request.addFailureListener(s::failed);
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      streams.add(s);
      if (sid != null) {
        bySession.put(sid, s);
      }
      response.write(false, ByteBuffer.wrap(RETRY), s);
      return true;
    }

    @Override
    public int port() {
      return connector.getLocalPort();
    }

    @Override
    public void trigger(int k) {
      byte[] event =
          ("id: 0_"
                  + k
                  + "\ndata: {\"jsonrpc\":\"2.0\",\"method\":\""
                  + FanoutHarness.MARKER
                  + "\"}\n\n")
              .getBytes(StandardCharsets.UTF_8);
      for (Stream s : streams) {
        s.response.write(false, ByteBuffer.wrap(event), s);
      }
    }

    @Override
    @SuppressWarnings(
        "ModifyCollectionInEnhancedForLoop") // a concurrent set: removal while iterating is safe
    public void close() {
      for (Stream s : streams) {
        if (streams.remove(s)) {
          s.response.write(true, BufferUtil.EMPTY_BUFFER, s.done);
        }
      }
      try {
        server.stop();
      } catch (Exception e) {
        System.err.println("stopping Jetty: " + e);
      }
    }
  }
}
