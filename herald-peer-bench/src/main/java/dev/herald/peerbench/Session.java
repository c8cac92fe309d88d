package dev.herald.peerbench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * One client session of the load driver over {@link RawHttp}: plain JSON-RPC text on one
 * keep-alive connection to {@code /mcp}. Handshake era: {@link #open} sends {@code initialize}
 * (2025-11-25) and {@code notifications/initialized}, then every request carries the {@code
 * Mcp-Session-Id} and the negotiated {@code MCP-Protocol-Version}. Stateless 2026-07-28: no
 * session; every POST carries its {@code _meta} and the {@code MCP-Protocol-Version}, {@code
 * Mcp-Method} and {@code Mcp-Name} headers. Not thread-safe.
 */
final class Session implements AutoCloseable {
  static final String HANDSHAKE = "2025-11-25";
  static final String MODERN = "2026-07-28";
  private static final String ACCEPT = "application/json, text/event-stream";

  RawHttp http;
  private final boolean stateless;
  private String id;
  private String version;
  private long nextId = 1;

  private Session(RawHttp http, boolean stateless) {
    this.http = http;
    this.stateless = stateless;
    this.version = stateless ? MODERN : HANDSHAKE;
  }

  static Session stateless(int port) throws IOException {
    return new Session(new RawHttp(port), true);
  }

  /** Opens a handshake-era session: {@code initialize}, then {@code notifications/initialized}. */
  static Session open(int port) throws IOException {
    Session s = new Session(new RawHttp(port), false);
    try {
      RawHttp.Response init =
          s.post(
              "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                  + HANDSHAKE
                  + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}}}",
              null);
      String sid = init.head().header("mcp-session-id");
      String text = init.text();
      if (init.head().status() != 200 || sid == null || !text.contains("\"result\"")) {
        throw new IOException(
            "initialize answered HTTP " + init.head().status() + ": " + brief(text));
      }
      s.id = sid;
      String v = Scan.string(text, "protocolVersion");
      s.version = v == null ? HANDSHAKE : v;
      RawHttp.Response ok =
          s.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", null);
      if (ok.head().status() / 100 != 2) {
        throw new IOException("notifications/initialized answered HTTP " + ok.head().status());
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** POSTs a JSON-RPC message and reads the whole answer. */
  RawHttp.Response post(String json, String tool) throws IOException {
    sendPost(json, tool);
    return http.read();
  }

  /** Writes a POST without reading its answer. */
  void sendPost(String json, String tool) throws IOException {
    http.send(
        "POST",
        "/mcp",
        json.getBytes(StandardCharsets.UTF_8),
        "Content-Type",
        "application/json",
        "Accept",
        ACCEPT,
        "MCP-Protocol-Version",
        id == null && !stateless ? null : version,
        "Mcp-Session-Id",
        id,
        "Mcp-Method",
        stateless ? "tools/call" : null,
        "Mcp-Name",
        stateless ? tool : null);
  }

  /** The text of a {@code tools/call} of {@code name} with these arguments (a JSON object). */
  String toolsCall(String name, String arguments, String progressToken) {
    long n = nextId++;
    StringBuilder meta = new StringBuilder();
    if (stateless || progressToken != null) {
      meta.append(",\"_meta\":{");
      if (progressToken != null) {
        meta.append("\"progressToken\":\"").append(progressToken).append('"');
      }
      if (stateless) {
        meta.append(progressToken != null ? "," : "")
            .append("\"io.modelcontextprotocol/protocolVersion\":\"")
            .append(MODERN)
            .append("\",\"io.modelcontextprotocol/clientCapabilities\":{},")
            .append(
                "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}");
      }
      meta.append('}');
    }
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + n
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + name
        + "\",\"arguments\":"
        + arguments
        + meta
        + "}}";
  }

  /** Calls {@code echo} and checks that the answer is a result carrying the text. */
  void echo(String text) throws IOException {
    RawHttp.Response r = post(toolsCall("echo", "{\"text\":\"" + text + "\"}", null), "echo");
    String body = r.text();
    if (r.head().status() != 200 || !body.contains("\"result\"") || !body.contains(text)) {
      throw new IOException("echo answered HTTP " + r.head().status() + ": " + brief(body));
    }
  }

  /** Closes this session's connection and opens a new one (the session stays). */
  void reconnect(int port) throws IOException {
    http.close();
    http = new RawHttp(port);
  }

  /**
   * Writes the standing GET on this session's connection without waiting for its head: the SDK
   * 2.1.0's servlet sends the head only with the first event. The socket read timeout is lifted
   * (the stream is idle until a change); the scenario's time bound closes it.
   */
  void sendStandingGet() throws IOException {
    http.noReadTimeout();
    http.send(
        "GET",
        "/mcp",
        new byte[0],
        "Accept",
        "text/event-stream",
        "MCP-Protocol-Version",
        version,
        "Mcp-Session-Id",
        id);
  }

  /** Reads the standing GET's head (blocking until the server sends it) and returns its body. */
  InputStream standingBody() throws IOException {
    RawHttp.Head h = http.head();
    if (h.status() != 200 || !h.sse()) {
      throw new IOException("GET answered HTTP " + h.status());
    }
    return http.body(h);
  }

  /** Sends {@code DELETE} for this session on a new connection (this one may hold a GET). */
  void delete(int port) {
    if (id == null) {
      return;
    }
    try (RawHttp d = new RawHttp(port)) {
      d.send("DELETE", "/mcp", new byte[0], "MCP-Protocol-Version", version, "Mcp-Session-Id", id);
      d.read();
    } catch (IOException ignored) {
      // the session ends with the server anyway
    }
  }

  static String brief(String body) {
    String s = body.replaceAll("\\s+", " ").trim();
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }

  @Override
  public void close() {
    http.close();
  }
}
