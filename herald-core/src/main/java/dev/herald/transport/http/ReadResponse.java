package dev.herald.transport.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/**
 * An answer whose body was handled, as a response of the JDK client would carry it, with no TLS
 * session and no earlier response: what {@link WholeBody} hands over for a body read whole, and
 * what {@link Http1Client} completes an exchange with.
 */
record ReadResponse<T>(
    int statusCode, HttpRequest request, HttpHeaders headers, T body, HttpClient.Version version)
    implements HttpResponse<T> {
  @Override
  public Optional<HttpResponse<T>> previousResponse() {
    return Optional.empty();
  }

  @Override
  public Optional<SSLSession> sslSession() {
    return Optional.empty();
  }

  @Override
  public URI uri() {
    return request.uri();
  }
}
