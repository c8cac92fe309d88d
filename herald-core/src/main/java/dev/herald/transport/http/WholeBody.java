package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read whole before the response is handed over: a successful answer that is not
 * an event stream (one JSON frame, or nothing) is at most one frame long, so it is collected as the
 * bytes arrive, bounded, and handled on the thread that completes the response instead of a reader
 * thread of its own. Every other answer (an event stream, an HTTP error) stays a stream.
 */
final class WholeBody extends ByteArrayInputStream {
  private WholeBody(byte[] bytes, int length) {
    super(bytes, 0, length);
  }

  /** The body's bytes, exactly. */
  byte[] bytes() {
    return count == buf.length ? buf : Arrays.copyOf(buf, count);
  }

  /**
   * Reads a successful answer that is not an event stream whole (at most {@code limit} bytes, else
   * the response fails with {@link TooLarge}); any other answer as a stream.
   */
  static HttpResponse.BodyHandler<InputStream> handler(int limit) {
    return info ->
        Http.isSuccess(info.statusCode()) && !Http.isMediaType(info.headers(), Http.EVENT_STREAM)
            ? new Collector(limit)
            : HttpResponse.BodySubscribers.ofInputStream();
  }

  /** A body longer than the limit. */
  static final class TooLarge extends TransportException {
    private static final long serialVersionUID = 1L;

    TooLarge(int limit) {
      super("response body larger than " + limit + " bytes");
    }
  }

  /** Collects the body into one array as it arrives. */
  private static final class Collector implements HttpResponse.BodySubscriber<InputStream> {
    private final int limit;
    private final CompletableFuture<InputStream> body = new CompletableFuture<>();
    private byte[] buf = new byte[0];
    private int length;
    private Flow.@org.jspecify.annotations.Nullable Subscription subscription;

    Collector(int limit) {
      this.limit = limit;
    }

    @Override
    public CompletionStage<InputStream> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer b : items) {
        int n = b.remaining();
        if ((long) length + n > limit) {
          Flow.Subscription s = subscription;
          if (s != null) {
            s.cancel();
          }
          body.completeExceptionally(new TooLarge(limit));
          return;
        }
        if (length + n > buf.length) {
          buf = Arrays.copyOf(buf, Math.min(limit, Math.max(length + n, buf.length * 2)));
        }
        b.get(buf, length, n);
        length += n;
      }
    }

    @Override
    public void onError(Throwable failure) {
      body.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
      body.complete(new WholeBody(buf, length));
    }
  }
}
