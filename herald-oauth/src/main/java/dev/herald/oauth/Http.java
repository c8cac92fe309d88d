package dev.herald.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.time.Duration;

/** The builders' shared checks, and the HTTP client a verifier makes for itself. */
final class Http {
  private Http() {}

  /** A client that connects within {@code connectTimeout} and follows no redirect. */
  static HttpClient client(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  static URI absolute(String value, String what) {
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme();
      if (uri.isAbsolute()
          && uri.getHost() != null
          && ("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + " must be an absolute http(s) URI, was: " + value);
  }

  static Duration positive(Duration d, String what) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, was " + d);
    }
    return d;
  }

  static Duration notNegative(Duration d, String what) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative, was " + d);
    }
    return d;
  }
}
