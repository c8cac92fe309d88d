package dev.herald.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A raw Streamable HTTP client on the JDK's {@link HttpClient} (MCP specification, "Transports":
 * Streamable HTTP, protocol version 2025-11-25): builds each request by hand so that a test controls
 * every header and body. Bodies may be written with single quotes, which become double quotes.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
public class RawHttpClient {
  /** The JDK client, HTTP/1.1. */
  public final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** The MCP endpoint. */
  public final URI uri;

  /** The session id sent as {@code Mcp-Session-Id}; set by {@link #initialize()}, a test may forge it. */
  public @Nullable String session;

  private int nextId = 1;

  public RawHttpClient(URI uri) {
    this.uri = uri;
  }

  /** A POST-ready request with the Accept, Content-Type, version and session headers. */
  public HttpRequest.Builder request() {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(20))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2025-11-25");
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b;
  }

  public HttpResponse<Stream<String>> post(String body) throws IOException, InterruptedException {
    return send(request().POST(HttpRequest.BodyPublishers.ofString(q(body))));
  }

  public HttpResponse<Stream<String>> send(HttpRequest.Builder b)
      throws IOException, InterruptedException {
    return http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
  }

  public HttpResponse<String> sendForString(HttpRequest.Builder b)
      throws IOException, InterruptedException {
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** {@code initialize} (which must answer 200) and {@code notifications/initialized}; returns the session id. */
  public String initialize() throws IOException, InterruptedException {
    HttpResponse<Stream<String>> r = post(INITIALIZE);
    if (r.statusCode() != 200) {
      throw new AssertionError("initialize: " + r.statusCode() + " " + body(r));
    }
    body(r);
    String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    session = id;
    initialized();
    return id;
  }

  /**
   * {@code initialize} and {@code notifications/initialized}, keeping whatever session id came back;
   * returns the initialize response with its body unread.
   */
  public HttpResponse<Stream<String>> initializeResponse()
      throws IOException, InterruptedException {
    HttpResponse<Stream<String>> r = post(INITIALIZE);
    session = r.headers().firstValue("Mcp-Session-Id").orElse(null);
    initialized();
    return r;
  }

  private void initialized() throws IOException, InterruptedException {
    HttpResponse<Stream<String>> n = post("{'jsonrpc':'2.0','method':'notifications/initialized'}");
    String text = body(n);
    if (n.statusCode() != 202) {
      throw new AssertionError("initialized: " + n.statusCode() + " " + text);
    }
  }

  private static final String INITIALIZE =
      "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
          + "'clientInfo':{'name':'test','version':'1'}}}";

  /** A fresh request id (1, 2, ...). */
  public int nextId() {
    return nextId++;
  }

  /** Starts a tools/call and returns the response once its headers arrived. */
  public HttpResponse<Stream<String>> call(int id, String tool, @Nullable String progressToken)
      throws IOException, InterruptedException {
    String meta = progressToken == null ? "" : ",'_meta':{'progressToken':'" + progressToken + "'}";
    return post(
        "{'jsonrpc':'2.0','id':"
            + id
            + ",'method':'tools/call','params':{'name':'"
            + tool
            + "','arguments':{}"
            + meta
            + "}}");
  }

  /** Opens a GET stream, optionally resuming after {@code lastEventId}; it must answer 200. */
  public SseReader get(@Nullable String lastEventId) throws IOException, InterruptedException {
    HttpResponse<Stream<String>> r = getResponse(lastEventId);
    if (r.statusCode() != 200) {
      throw new AssertionError("GET: " + r.statusCode() + " " + body(r));
    }
    return new SseReader(r.body());
  }

  public HttpResponse<Stream<String>> getResponse(@Nullable String lastEventId)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .GET()
            .timeout(Duration.ofSeconds(20))
            .header("Accept", "text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25");
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    return send(b);
  }

  /** The whole body, read to its end. */
  public static String body(HttpResponse<Stream<String>> r) {
    try (Stream<String> lines = r.body()) {
      return lines.collect(Collectors.joining("\n"));
    }
  }

  /** Single quotes to double quotes, for JSON written in Java strings. */
  public static String q(String s) {
    return s.replace('\'', '"');
  }

  public static JsonNode json(String text) {
    return JsonMapper.shared().readTree(text);
  }

  /**
   * A one-line description of a JSON-RPC message, for whole-sequence assertions: {@code "progress
   * <token> <n>"}, {@code "log <data>"}, the method of any other notification, {@code "error <id>
   * <code>"} or {@code "result <id> <first text>"}.
   */
  public static String describe(JsonNode m) {
    if (m.has("method")) {
      String method = m.get("method").asString();
      JsonNode p = m.get("params");
      return switch (method) {
        case "notifications/progress" ->
            "progress " + p.get("progressToken").asString() + " " + p.get("progress").asInt();
        case "notifications/message" -> "log " + p.get("data").asString();
        default -> method;
      };
    }
    if (m.has("error")) {
      return "error " + m.get("id") + " " + m.get("error").get("code").asInt();
    }
    return "result "
        + m.get("id")
        + " "
        + m.get("result").get("content").get(0).get("text").asString();
  }
}
