package dev.herald.transport.http;

import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP client a {@link StreamableHttpClientTransport} builds for itself when none is given to
 * {@link StreamableHttpClientTransport.Builder#httpClient}; see {@link
 * StreamableHttpClientTransport.Builder#httpEngine}. Both speak HTTP/1.1 without redirects and
 * carry every feature of the transport; the transport shuts the client it built down on close.
 */
public enum HttpEngine {
  /**
   * {@link #HTTP1} when no proxy applies to the endpoint, else {@link #JDK} (the default). No
   * proxy applies when the transport's {@linkplain StreamableHttpClientTransport.Builder#proxy
   * proxy selector} (else {@link ProxySelector#getDefault()}, which reads the {@code
   * http.proxyHost} family of system properties) is absent or selects only {@link Proxy#NO_PROXY
   * DIRECT} for the endpoint's URI. A selector that selects nothing or throws counts as naming a
   * proxy, so the JDK client, which knows what to do with it, is used. Decided once, when the
   * transport is built.
   */
  AUTO,

  /**
   * {@link Http1Client}: each exchange made on the thread that sends it, a JSON answer read and
   * delivered before {@code send} returns; for many small calls, a third to a quarter of the
   * client CPU per call of {@link #JDK} (docs/benchmarks.md, "Peer comparison"). It does not use
   * proxies: chosen explicitly, it connects to the endpoint directly whatever a selector says.
   */
  HTTP1,

  /**
   * The JDK's {@link java.net.http.HttpClient}: honours the proxy selector, and runs its own tasks
   * on its selector thread (an answer is handed from that thread to its caller).
   */
  JDK;

  /** What this choice comes to for {@code uri}: {@link #HTTP1} or {@link #JDK}. */
  HttpEngine resolve(URI uri, @Nullable ProxySelector selector) {
    if (this != AUTO) {
      return this;
    }
    return direct(uri, selector) ? HTTP1 : JDK;
  }

  /** Whether {@code selector} (absent: none) reaches {@code uri} without a proxy. */
  static boolean direct(URI uri, @Nullable ProxySelector selector) {
    if (selector == null) {
      return true;
    }
    List<Proxy> proxies;
    try {
      proxies = selector.select(uri);
    } catch (RuntimeException e) {
      return false;
    }
    if (proxies == null || proxies.isEmpty()) {
      return false;
    }
    for (Proxy p : proxies) {
      if (p == null || p.type() != Proxy.Type.DIRECT) {
        return false;
      }
    }
    return true;
  }
}
