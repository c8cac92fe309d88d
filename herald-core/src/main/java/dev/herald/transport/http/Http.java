package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;

/** Small HTTP helpers shared by the streams of the HTTP client transport: no state. */
final class Http {
  static final String ACCEPT_BOTH = "application/json, text/event-stream";
  static final String EVENT_STREAM = "text/event-stream";
  static final String JSON = "application/json";
  static final String SESSION_ID = "Mcp-Session-Id";
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID = "Last-Event-ID";

  private Http() {}

  /** Whether the response's media type is {@code type}, ignoring parameters and case. */
  static boolean isMediaType(HttpHeaders headers, String type) {
    return headers
        .firstValue("Content-Type")
        .map(v -> {
          int semi = v.indexOf(';');
          return (semi < 0 ? v : v.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        })
        .filter(type::equals)
        .isPresent();
  }

  static boolean isSuccess(int status) {
    return status >= 200 && status < 300;
  }

  /**
   * Reads a whole body, at most {@code limit} bytes.
   *
   * @throws TransportException when the body is longer
   */
  static byte[] readBounded(InputStream in, int limit) throws IOException {
    if (in instanceof WholeBody whole && whole.available() <= limit) {
      return whole.bytes(); // read whole already, within the limit
    }
    try (in) {
      byte[] buf = new byte[Math.min(limit, 8192)];
      int len = 0;
      int n;
      while ((n = in.read(buf, len, buf.length - len)) != -1) {
        len += n;
        if (len == buf.length) {
          if (len >= limit) {
            if (in.read() != -1) {
              throw new TransportException("response body larger than " + limit + " bytes");
            }
            break;
          }
          buf = Arrays.copyOf(buf, (int) Math.min((long) limit, buf.length * 2L));
        }
      }
      return len == buf.length ? buf : Arrays.copyOf(buf, len);
    }
  }

  /** The body of an HTTP error, at most 64 KiB; empty when it is longer. */
  static byte[] errorBody(InputStream in) throws IOException {
    try {
      return readBounded(in, 64 * 1024);
    } catch (TransportException e) {
      return new byte[0];
    }
  }

  /** Discards a body we do not read. */
  static void discard(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // nothing to do: the exchange is over either way
    }
  }

  /** The failure of a connection attempt as one clear line: "cannot reach URI: reason". */
  static TransportException unreachable(URI uri, @Nullable Throwable failure) {
    if (failure == null) {
      return new TransportException("cannot reach " + uri);
    }
    Throwable t = unwrap(failure);
    return new TransportException("cannot reach " + uri + ": " + reason(t), t);
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** A short lower-case reason for an I/O failure. */
  static String reason(Throwable t) {
    if (t instanceof HttpConnectTimeoutException) {
      return "connect timed out";
    }
    if (t instanceof HttpTimeoutException) {
      return "timed out";
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof UnresolvedAddressException || c instanceof UnknownHostException) {
        return "unknown host";
      }
      if (c instanceof ConnectException) {
        String m = deepestMessage(c);
        return m == null ? "connection refused" : m.toLowerCase(Locale.ROOT);
      }
    }
    String m = deepestMessage(t);
    return m == null ? t.getClass().getSimpleName() : m;
  }

  private static @Nullable String deepestMessage(Throwable t) {
    String found = null;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        found = c.getMessage();
      }
    }
    return found;
  }

  /** Whether {@code other} has the same scheme, host and port as {@code base}. */
  static boolean sameOrigin(URI base, URI other) {
    return base.getScheme() != null
        && base.getScheme().equalsIgnoreCase(other.getScheme())
        && base.getHost() != null
        && base.getHost().equalsIgnoreCase(other.getHost())
        && port(base) == port(other);
  }

  private static int port(URI u) {
    if (u.getPort() != -1) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  /**
   * A body publisher that completes {@link #sent()} once the whole body has been handed to the
   * connection, so a sender can return as soon as its message has left, without waiting for the
   * server's answer (which, for a JSON response, may take as long as the call itself).
   */
  static final class SignallingPublisher implements HttpRequest.BodyPublisher {
    private final byte[] body;
    private final CompletableFuture<Void> sent = new CompletableFuture<>();

    SignallingPublisher(byte[] body) {
      this.body = body;
    }

    CompletableFuture<Void> sent() {
      return sent;
    }

    @Override
    public long contentLength() {
      return body.length;
    }

    /**
     * Hands the body over as one buffer over the array itself ({@code BodyPublishers.ofByteArray}
     * copies it first, for a caller that might change it; this array is the encoder's and nobody
     * else's), then completes; each subscription sends it whole again.
     */
    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
      subscriber.onSubscribe(
          new Flow.Subscription() {
            private final java.util.concurrent.atomic.AtomicBoolean done =
                new java.util.concurrent.atomic.AtomicBoolean();

            @Override
            public void request(long n) {
              if (!done.compareAndSet(false, true)) {
                return;
              }
              if (n <= 0) {
                subscriber.onError(
                    new IllegalArgumentException("non-positive subscription request: " + n));
                return;
              }
              subscriber.onNext(ByteBuffer.wrap(body));
              subscriber.onComplete();
              sent.complete(null);
            }

            @Override
            public void cancel() {
              done.set(true);
            }
          });
    }
  }
}
