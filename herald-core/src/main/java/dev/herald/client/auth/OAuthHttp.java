package dev.herald.client.auth;

import dev.herald.wire.McpJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP exchanges of an authorization flow: metadata {@code GET}s, form {@code POST}s to the
 * token endpoint, JSON {@code POST}s to the registration endpoint. Every exchange has a timeout and
 * every body a size bound; every failure is an {@link AuthorizationException} naming the URL.
 * Redirects are never followed here.
 */
final class OAuthHttp {
  private final HttpClient client;
  private final Duration timeout;
  private final int maxBytes;

  OAuthHttp(HttpClient client, Duration timeout, int maxBytes) {
    this.client = client;
    this.timeout = timeout;
    this.maxBytes = maxBytes;
  }

  HttpClient client() {
    return client;
  }

  /** An answer read whole. */
  static final class Response {
    private final URI uri;
    private final int status;
    private final byte[] body;

    Response(URI uri, int status, byte[] body) {
      this.uri = uri;
      this.status = status;
      this.body = body;
    }

    int status() {
      return status;
    }

    boolean ok() {
      return status >= 200 && status < 300;
    }

    /** The body as a JSON object. */
    ObjectNode json() {
      try {
        JsonNode n = McpJson.mapper().readTree(body);
        if (n instanceof ObjectNode o) {
          return o;
        }
      } catch (JacksonException e) {
        throw new AuthorizationException(
            uri + " answered with invalid JSON: " + e.getOriginalMessage());
      }
      throw new AuthorizationException(uri + " answered with JSON that is not an object");
    }
  }

  Response get(URI uri) {
    return send(
        HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET());
  }

  /** A form {@code POST} ({@code application/x-www-form-urlencoded}), with an optional header. */
  Response postForm(URI uri, Map<String, String> form, @Nullable String authorization) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form(form)));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return send(b);
  }

  Response postJson(URI uri, JsonNode body) {
    return send(
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofByteArray(McpJson.mapper().writeValueAsBytes(body))));
  }

  private Response send(HttpRequest.Builder b) {
    HttpRequest request = b.build();
    try {
      HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      byte[] body = readBounded(request.uri(), r.body());
      return new Response(request.uri(), r.statusCode(), body);
    } catch (IOException e) {
      throw new AuthorizationException("cannot reach " + request.uri() + ": " + reason(e), null, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthorizationException("interrupted while calling " + request.uri(), null, e);
    }
  }

  private byte[] readBounded(URI uri, InputStream in) throws IOException {
    try (in) {
      byte[] buf = new byte[Math.min(maxBytes + 1, 8192)];
      int len = 0;
      int n;
      while ((n = in.read(buf, len, buf.length - len)) != -1) {
        len += n;
        if (len > maxBytes) {
          throw new AuthorizationException(uri + " answered with more than " + maxBytes + " bytes");
        }
        if (len == buf.length) {
          buf = Arrays.copyOf(buf, Math.min(maxBytes + 1, buf.length * 2));
        }
      }
      return Arrays.copyOf(buf, len);
    }
  }

  private static String reason(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  /** {@code application/x-www-form-urlencoded}, in the map's order. */
  static String form(Map<String, String> fields) {
    StringJoiner j = new StringJoiner("&");
    fields.forEach((k, v) -> j.add(encode(k) + "=" + encode(v)));
    return j.toString();
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /**
   * Whether {@code uri} may carry authorization traffic: {@code https}, or {@code http} to a
   * loopback host (MCP 2025-11-25 basic/authorization §Communication Security).
   */
  static boolean secure(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("https")) {
      return true;
    }
    return scheme.equals("http") && isLoopback(uri.getHost());
  }

  static boolean isLoopback(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    return h.equals("::1")
        || h.equals("0:0:0:0:0:0:0:1")
        || LOOPBACK_V4.matcher(h).matches(); // literal addresses only: never resolve a name here
  }

  private static final java.util.regex.Pattern LOOPBACK_V4 =
      java.util.regex.Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

  /**
   * Checks that {@code uri} is secure (see {@link #secure}).
   *
   * @throws AuthorizationException naming {@code what} otherwise
   */
  static URI requireSecure(URI uri, String what) {
    if (!secure(uri)) {
      throw new AuthorizationException(
          what + " must use https (or http to a loopback host), was " + uri);
    }
    return uri;
  }

  /** Whether {@code u} is {@code redirectUri} plus a query (same scheme, authority and path). */
  static boolean isRedirectTarget(URI u, URI redirectUri) {
    return u.getScheme() != null
        && u.getScheme().equalsIgnoreCase(redirectUri.getScheme())
        && u.getRawAuthority() != null
        && u.getRawAuthority().equalsIgnoreCase(redirectUri.getRawAuthority())
        && String.valueOf(u.getRawPath()).equals(String.valueOf(redirectUri.getRawPath()));
  }
}
