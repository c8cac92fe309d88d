package dev.herald.peerbench;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * The "ceiling": a minimal MCP server written straight on Jetty 12 core handlers, with the platform
 * thread pool of Herald's {@code IoThreads.PLATFORM} (everything it does happens on the selector
 * thread, with no hand-off for virtual threads to save), one acceptor and one selector, doing the
 * least work a message allows. It reads no JSON tree: {@link Scan} picks the few members it needs
 * out of the request text.
 *
 * <ul>
 *   <li>POST {@code initialize}: a fixed result naming the client's protocol version, a counter as
 *       {@code Mcp-Session-Id}; {@code tools/list}: a fixed list; {@code tools/call} of {@code
 *       echo}: a JSON result carrying the request's {@code text} as it stood; of {@code progress}:
 *       an SSE response with {@code count} progress notifications and the result, built in one
 *       buffer and written at once; {@code ping}: an empty result; a notification or a response:
 *       202; any other method: JSON-RPC error -32601. Stateless 2026-07-28 calls are answered the
 *       same way (nothing is checked).
 *   <li>GET: an SSE response with {@code retry}, kept by session id; DELETE ends it. {@code trigger
 *       k} writes one {@code notifications/tools/list_changed} event, encoded once, to every kept
 *       response from the calling thread.
 * </ul>
 *
 * Jetty's per-connection header-field cache is off (the least memory per connection).
 */
final class CeilingServer extends Handler.Abstract.NonBlocking implements ServerMain.Target {
  private static final byte[] RETRY = Scan.ascii("retry: 1000\n\n");
  private static final String TOOLS =
      "{\"tools\":[{\"name\":\"echo\",\"description\":\"Returns the text\",\"inputSchema\":{\"type\":\"object\"}},"
          + "{\"name\":\"progress\",\"description\":\"Sends count progress notifications\",\"inputSchema\":{\"type\":\"object\"}}]}";
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

  CeilingServer() throws Exception {
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
          } else {
            post(body, response, callback);
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

  private void post(String body, Response response, Callback callback) {
    String method = Scan.string(body, "method");
    String id = Scan.raw(body, "id");
    if (method == null || id == null) { // a notification, or a response to us
      response.setStatus(202);
      response.write(true, BufferUtil.EMPTY_BUFFER, callback);
      return;
    }
    switch (method) {
      case "initialize" -> {
        String version = Scan.raw(body, "protocolVersion");
        response.getHeaders().put("Mcp-Session-Id", "c" + ids.incrementAndGet());
        json(
            response,
            callback,
            id,
            "{\"protocolVersion\":"
                + (version == null ? "\"2025-11-25\"" : version)
                + ",\"capabilities\":{\"tools\":{\"listChanged\":true}},"
                + "\"serverInfo\":{\"name\":\"ceiling\",\"version\":\"1\"}}");
      }
      case "tools/list" -> json(response, callback, id, TOOLS);
      case "ping" -> json(response, callback, id, "{}");
      case "tools/call" -> {
        if ("progress".equals(Scan.string(body, "name"))) {
          progress(body, id, response, callback);
        } else {
          String text = Scan.raw(body, "text");
          json(
              response,
              callback,
              id,
              "{\"content\":[{\"type\":\"text\",\"text\":"
                  + (text == null ? "\"\"" : text)
                  + "}],\"isError\":false}");
        }
      }
      default -> {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(
            true,
            ByteBuffer.wrap(
                ("{\"jsonrpc\":\"2.0\",\"id\":"
                        + id
                        + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}")
                    .getBytes(StandardCharsets.UTF_8)),
            callback);
      }
    }
  }

  private static void json(Response response, Callback callback, String id, String result) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(
        true,
        ByteBuffer.wrap(
            ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}")
                .getBytes(StandardCharsets.UTF_8)),
        callback);
  }

  /** {@code count} progress notifications and the result, one SSE body written at once. */
  private static void progress(String body, String id, Response response, Callback callback) {
    String c = Scan.raw(body, "count");
    int n = c == null ? 0 : Integer.parseInt(c);
    String token = Scan.raw(body, "progressToken");
    ByteArrayOutputStream sse = new ByteArrayOutputStream(n * 110 + 200);
    if (token != null) {
      byte[] head =
          Scan.ascii(
              "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                  + token
                  + ",\"progress\":");
      byte[] total = Scan.ascii(",\"total\":" + n + "}}\n\n");
      for (int i = 1; i <= n; i++) {
        sse.writeBytes(head);
        sse.writeBytes(Scan.ascii(Integer.toString(i)));
        sse.writeBytes(total);
      }
    }
    sse.writeBytes(
        ("data: {\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"sent "
                + n
                + "\"}],\"isError\":false}}\n\n")
            .getBytes(StandardCharsets.UTF_8));
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.write(true, ByteBuffer.wrap(sse.toByteArray()), callback);
  }

  @Override
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void trigger(int k) {
    byte[] event =
        Scan.ascii(
            "id: 0_"
                + k
                + "\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
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
