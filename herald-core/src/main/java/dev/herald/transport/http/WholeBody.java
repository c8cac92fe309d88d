package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

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
            ? new Collector(limit, null, null, info)
            : HttpResponse.BodySubscribers.ofInputStream();
  }

  /**
   * As {@link #handler(int)}, and a body read whole is also handed to {@code whole} as soon as its
   * last byte arrived, on the thread that read it, before the response's future completes. The
   * JDK client completes the future of {@code sendAsync} on another thread (its default executor:
   * the common pool), a hand-off per answer that {@code whole} skips; the future then carries the
   * same response, already handled.
   */
  static HttpResponse.BodyHandler<InputStream> handler(
      int limit, HttpRequest request, Consumer<HttpResponse<InputStream>> whole) {
    return info ->
        Http.isSuccess(info.statusCode()) && !Http.isMediaType(info.headers(), Http.EVENT_STREAM)
            ? new Collector(limit, request, whole, info)
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
    private final @Nullable HttpRequest request;
    private final @Nullable Consumer<HttpResponse<InputStream>> whole;
    private final HttpResponse.ResponseInfo info;
    private final CompletableFuture<InputStream> body = new CompletableFuture<>();
    private byte[] buf = new byte[0];
    private int length;
    private Flow.@Nullable Subscription subscription;

    Collector(
        int limit,
        @Nullable HttpRequest request,
        @Nullable Consumer<HttpResponse<InputStream>> whole,
        HttpResponse.ResponseInfo info) {
      this.limit = limit;
      this.request = request;
      this.whole = whole;
      this.info = info;
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
      if (body.isDone()) {
        return; // failed already (too large): nothing to hand over
      }
      WholeBody read = new WholeBody(buf, length);
      try {
        if (whole != null && request != null) {
          whole.accept(
              new ReadResponse<>(info.statusCode(), request, info.headers(), read, info.version()));
        }
      } finally {
        body.complete(read);
      }
    }
  }
}
