package dev.herald.transport.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The {@code POST} of one message (MCP 2025-11-25 basic/transports §Sending Messages to the
 * Server) as an {@link HttpRequest} of its own, with headers made once per session state.
 *
 * <p>Design note. Built through {@link HttpRequest#newBuilder}, every post validated and copied
 * each header into a fresh sorted map twice (the builder's, then the request's), and the JDK
 * client copies and validates them once more when it sends; at thousands of calls per second
 * that was a visible share of the client's allocations. A post's headers are the transport's
 * configured headers, the session id, the protocol version, {@code Accept} and {@code
 * Content-Type}, which change only when the session does: {@link Headers} keeps them for the
 * session facts they were made for. The JDK client still validates them as it sends (it copies
 * a request of any class). A transport with an {@code Authorization}, which may give a new token
 * per request, builds its posts through the JDK builder as before.
 *
 * <p>Immutable; {@link Headers} is safe to share between threads.
 */
final class PostRequest extends HttpRequest {
  private final URI uri;
  private final HttpHeaders headers;
  private final Optional<BodyPublisher> body;

  PostRequest(URI uri, HttpHeaders headers, BodyPublisher body) {
    this.uri = uri;
    this.headers = headers;
    this.body = Optional.of(body);
  }

  @Override
  public Optional<BodyPublisher> bodyPublisher() {
    return body;
  }

  @Override
  public String method() {
    return "POST";
  }

  @Override
  public Optional<Duration> timeout() {
    return Optional.empty();
  }

  @Override
  public boolean expectContinue() {
    return false;
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public Optional<HttpClient.Version> version() {
    return Optional.empty();
  }

  @Override
  public HttpHeaders headers() {
    return headers;
  }

  @Override
  public String toString() {
    return uri + " POST";
  }

  /**
   * A post's headers for one state of the session: made again only when the session id or the
   * protocol version changed since the last post. Used only when the transport has no {@link
   * dev.herald.client.auth.Authorization}, whose header may change per request.
   */
  record Headers(@Nullable String sessionId, @Nullable String protocolVersion, HttpHeaders all) {
    /**
     * {@code last} if it was made for this session id and version, else new headers. Every value
     * was checked before: the configured ones by the transport's builder, the session id when the
     * server issued it, and the version is one Herald knows.
     */
    static Headers of(
        @Nullable Headers last,
        Map<String, String> configured,
        @Nullable String sessionId,
        @Nullable String protocolVersion) {
      if (last != null
          && java.util.Objects.equals(last.sessionId, sessionId)
          && java.util.Objects.equals(last.protocolVersion, protocolVersion)) {
        return last;
      }
      // what HttpRequest.Builder#header would have made of them: one list per name, in order
      TreeMap<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      configured.forEach((name, value) -> add(map, name, value));
      if (sessionId != null) {
        add(map, Http.SESSION_ID, sessionId);
      }
      if (protocolVersion != null) {
        add(map, Http.PROTOCOL_VERSION, protocolVersion);
      }
      add(map, "Accept", Http.ACCEPT_BOTH);
      add(map, "Content-Type", Http.JSON);
      return new Headers(sessionId, protocolVersion, HttpHeaders.of(map, (n, v) -> true));
    }

    private static void add(TreeMap<String, List<String>> map, String name, String value) {
      map.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
    }
  }
}
