package dev.herald.http;

import dev.herald.transport.http.Http1Client;
import dev.herald.transport.http.HttpEngine;
import dev.herald.transport.http.StreamableHttpClientTransport;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The HTTP client a test's {@link StreamableHttpClientTransport} runs on: the JDK's {@code
 * HttpClient} the transport builds when asked for it ({@link HttpEngine#JDK}), or an {@link
 * Http1Client} given to it. The client tests over a real Herald
 * Jetty server run on both (JUnit's {@code @ParameterizedClass}) and call {@link #closeAll} after
 * each test.
 */
enum ClientEngine {
  JDK,
  HTTP1;

  private static final List<Http1Client> OPENED = new CopyOnWriteArrayList<>();

  /** {@code b} on this engine. */
  StreamableHttpClientTransport.Builder apply(StreamableHttpClientTransport.Builder b) {
    if (this == HTTP1) {
      Http1Client client = Http1Client.newClient();
      OPENED.add(client);
      b.httpClient(client);
    } else {
      b.httpEngine(HttpEngine.JDK);
    }
    return b;
  }

  /** A transport to {@code uri} on this engine. */
  StreamableHttpClientTransport transport(URI uri) {
    return apply(StreamableHttpClientTransport.builder().uri(uri)).build();
  }

  /** Closes every {@link Http1Client} made so far. */
  static void closeAll() {
    for (Http1Client c : OPENED) {
      c.close();
    }
    OPENED.clear();
  }
}
