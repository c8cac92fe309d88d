package dev.herald.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The harnesses' JSON-RPC POSTs and handshake-era session set-up, over the JDK client. */
final class HandshakeHttp {
  private HandshakeHttp() {}

  /** A POST of {@code body} with the Streamable HTTP content headers, bounded by {@code timeout}. */
  static HttpRequest.Builder post(URI uri, String body, Duration timeout) {
    return HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  /**
   * {@code initialize} (2025-11-25, as {@code clientName}) and {@code notifications/initialized};
   * the session id.
   *
   * @throws IOException when the answer carries no session id (its status and body say why)
   */
  static String initialize(HttpClient http, URI uri, String clientName, Duration timeout)
      throws IOException, InterruptedException {
    HttpResponse<String> init =
        http.send(
            post(
                    uri,
                    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                        + CallsHarness.HANDSHAKE
                        + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\""
                        + clientName
                        + "\",\"version\":\"1\"}}}",
                    timeout)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String session =
        init.headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(
                () -> new IOException("initialize: " + init.statusCode() + " " + init.body()));
    http.send(
        post(uri, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", timeout)
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", CallsHarness.HANDSHAKE)
            .build(),
        HttpResponse.BodyHandlers.discarding());
    return session;
  }
}
