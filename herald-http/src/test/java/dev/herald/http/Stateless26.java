package dev.herald.http;

import static dev.herald.testing.RawHttpClient.json;

import dev.herald.testing.RawHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * A raw 2026-07-28 client for tests: one POST per request, {@code _meta} and the SEP-2243
 * headers filled in unless a test overrides or removes them.
 */
final class Stateless26 {
  static final String VERSION = "2026-07-28";
  static final String META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{}}";

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  final URI uri;

  Stateless26(URI uri) {
    this.uri = uri;
  }

  /** The standard headers of a request: version, method and (where it applies) name. */
  static Map<String, String> headers(String method, String name) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("MCP-Protocol-Version", VERSION);
    h.put("Mcp-Method", method);
    if (name != null) {
      h.put("Mcp-Name", name);
    }
    return h;
  }

  HttpRequest.Builder request(Map<String, String> headers, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(20))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(RawHttpClient.q(body)));
    headers.forEach((k, v) -> {
      if (v != null) {
        b.header(k, v);
      }
    });
    return b;
  }

  HttpResponse<String> post(Map<String, String> headers, String body)
      throws IOException, InterruptedException {
    return http.send(
        request(headers, body).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<Stream<String>> open(Map<String, String> headers, String body)
      throws IOException, InterruptedException {
    return http.send(request(headers, body).build(), HttpResponse.BodyHandlers.ofLines());
  }

  /** A {@code tools/call} body with the standard {@code _meta}. */
  static String call(int id, String tool, String arguments) {
    return "{'jsonrpc':'2.0','id':"
        + id
        + ",'method':'tools/call','params':{'name':'"
        + tool
        + "','arguments':"
        + arguments
        + ","
        + META
        + "}}";
  }

  /** Calls a tool with the right headers; returns the response. */
  HttpResponse<String> call(int id, String tool) throws IOException, InterruptedException {
    return post(headers("tools/call", tool), call(id, tool, "{}"));
  }

  static JsonNode body(HttpResponse<String> r) {
    return json(r.body());
  }
}
