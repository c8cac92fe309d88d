package dev.herald.transport.http;

import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS context of {@link Http1Client} (unless given one) and of the transport's own JDK client
 * when its endpoint is plain {@code http}: the JDK's default context ({@link
 * SSLContext#getDefault()}, which reads the trust store and sets up the TLS provider: about 200 ms
 * of a cold process, most of the client's start-up) is made only if something asks for it, which a
 * client that never leaves {@code http} (redirects are not followed) never does.
 *
 * <p>Design note (docs/benchmarks.md, "Cold start"). With a context of its own the JDK client does
 * not make the default one, and with {@link #parameters()} (empty: the engine's defaults) it does
 * not ask the context for its parameters either. Every call of the context goes to the default one,
 * made on first use.
 */
final class LazyTls {
  private LazyTls() {}

  /** A context that makes the default one when first used. */
  static SSLContext context() {
    return new SSLContext(new DeferredSpi(), null, "Default") {};
  }

  /** No protocols or cipher suites of its own: an engine keeps its context's defaults. */
  static SSLParameters parameters() {
    return new SSLParameters();
  }

  /** Every operation on the JDK's default context, looked up when first needed. */
  private static final class DeferredSpi extends SSLContextSpi {
    private static SSLContext real() {
      try {
        return SSLContext.getDefault();
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("no default TLS context", e);
      }
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr)
        throws KeyManagementException {
      throw new KeyManagementException("this context is the default one, already initialised");
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      return real().getSocketFactory();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      return real().getServerSocketFactory();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      return real().createSSLEngine();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      return real().createSSLEngine(host, port);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      return real().getServerSessionContext();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      return real().getClientSessionContext();
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      return real().getDefaultSSLParameters();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      return real().getSupportedSSLParameters();
    }
  }
}
