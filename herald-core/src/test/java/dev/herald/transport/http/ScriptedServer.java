package dev.herald.transport.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP server on 127.0.0.1 that answers each request as a test script says, and records every
 * request it got (method, path, headers, body) in arrival order.
 */
final class ScriptedServer implements AutoCloseable {
  /** One recorded request. Header names are case-insensitive. */
  record Request(
      String method, String path, Map<String, List<String>> headers, String body, long nanos) {
    @Nullable String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.getFirst();
    }

    boolean isPost(String fragment) {
      return method.equals("POST") && body.contains(fragment);
    }

    @Override
    public String toString() {
      return method + " " + path + (body.isEmpty() ? "" : " " + body);
    }
  }

  /** Writes one response. */
  @FunctionalInterface
  interface Responder {
    void respond(HttpExchange exchange) throws Exception;
  }

  static final String END = "\u0000end";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  final List<Request> requests = new CopyOnWriteArrayList<>();
  final BlockingQueue<Request> arrivals = new LinkedBlockingQueue<>();

  ScriptedServer(Function<Request, Responder> script) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            headers.putAll(exchange.getRequestHeaders());
            String body =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request r =
                new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().toString(),
                    headers,
                    body,
                    System.nanoTime());
            requests.add(r);
            arrivals.add(r);
            script.apply(r).respond(exchange);
          } catch (Exception e) {
            // the client went away mid-response: expected when streams are cancelled
          }
        });
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The next request to arrive, waiting up to five seconds. */
  Request next() throws InterruptedException {
    Request r = arrivals.poll(5, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no request arrived; got so far: " + requests);
    }
    return r;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ---------------------------------------------------------------- responders

  static Responder json(String body, String... headerPairs) {
    return json(200, body, headerPairs);
  }

  static Responder json(int status, String body, String... headerPairs) {
    return ex -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      headers(ex, headerPairs);
      ex.sendResponseHeaders(status, bytes.length);
      ex.getResponseBody().write(bytes);
    };
  }

  static Responder status(int status) {
    return ex -> ex.sendResponseHeaders(status, -1);
  }

  /** An event stream that writes each chunk (flushed) and then closes the connection. */
  static Responder sse(String... chunks) {
    return sse(new String[0], chunks);
  }

  static Responder sse(String[] headerPairs, String... chunks) {
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", "text/event-stream");
      headers(ex, headerPairs);
      ex.sendResponseHeaders(200, 0);
      OutputStream out = ex.getResponseBody();
      for (String chunk : chunks) {
        out.write(chunk.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    };
  }

  /**
   * An event stream fed from a queue: each string taken is written and flushed, until {@link #END}
   * (then the stream closes) or the client goes away.
   */
  static Responder sseFrom(BlockingQueue<String> feed) {
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", "text/event-stream");
      ex.sendResponseHeaders(200, 0);
      OutputStream out = ex.getResponseBody();
      out.flush();
      while (true) {
        String chunk = feed.take();
        if (chunk.equals(END)) {
          return;
        }
        out.write(chunk.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    };
  }

  /** A JSON-RPC message as one SSE event with an id. */
  static String event(String id, String json) {
    return "id: " + id + "\ndata: " + json + "\n\n";
  }

  private static void headers(HttpExchange ex, String... pairs) {
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      ex.getResponseHeaders().add(pairs[i], pairs[i + 1]);
    }
  }
}
