package dev.herald.http;

import dev.herald.http.internal.Exchange;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Exchange} over Jetty core's {@link Request}, {@link Response} and {@link Callback}.
 *
 * <p>Design note. Writes go straight to {@link Response#write}; the last one completes
 * the handler's callback, and a failed write fails it, which makes Jetty drop the connection.
 * Bodies are read with {@link Request#demand} callbacks, chunk by chunk, up to the limit.
 *
 * <p>Thread-safe as {@link Exchange} requires; {@link #ended} makes the handler's callback
 * complete once.
 */
final class JettyExchange implements Exchange {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final int localPort;
  private final AtomicBoolean ended = new AtomicBoolean();

  JettyExchange(Request request, Response response, Callback callback) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.localPort = Request.getLocalPort(request);
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return request.getHttpURI().getPath();
  }

  @Override
  public String mountPrefix() {
    return "";
  }

  @Override
  public int localPort() {
    return localPort;
  }

  @Override
  public String remoteAddress() {
    return Request.getRemoteAddr(request);
  }

  @Override
  public @Nullable String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public List<String> headers(String name) {
    return request.getHeaders().getValuesList(name);
  }

  @Override
  public @Nullable String queryParameter(String name) {
    Fields query = Request.extractQueryParameters(request);
    return query.getValue(name);
  }

  @Override
  public long contentLength() {
    return request.getLength();
  }

  @Override
  public void readBody(int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
    new BodyReader(request, max, done, failed).run();
  }

  @Override
  public void status(int status) {
    response.setStatus(status);
  }

  @Override
  public void header(String name, String value) {
    response.getHeaders().put(name, value);
  }

  @Override
  public void write(ByteBuffer data, boolean last, Done done) {
    response.write(last, data, new Callback() {
      @Override
      public void succeeded() {
        if (last && ended.compareAndSet(false, true)) {
          callback.succeeded();
        }
        done.succeeded();
      }

      @Override
      public void failed(Throwable cause) {
        if (ended.compareAndSet(false, true)) {
          callback.failed(cause);
        }
        done.failed(cause);
      }
    });
  }

  @Override
  public void abort(Throwable cause) {
    if (ended.compareAndSet(false, true)) {
      callback.failed(cause);
    }
  }

  @Override
  public void onPeerGone(Consumer<Throwable> listener) {
    request.addFailureListener(listener);
  }

  @Override
  public void keepOpen() {
    request.addIdleTimeoutListener(x -> false);
  }

  /** Reads chunks as they come, without blocking, until the last one or the limit. */
  private static final class BodyReader implements Runnable {
    private final Request request;
    private final int max;
    private final Consumer<byte @Nullable []> done;
    private final Consumer<Throwable> failed;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(512);

    BodyReader(Request request, int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
      this.request = request;
      this.max = max;
      this.done = done;
      this.failed = failed;
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          failed.accept(chunk.getFailure());
          return;
        }
        ByteBuffer buf = chunk.getByteBuffer();
        int n = buf.remaining();
        if (body.size() + (long) n > max) {
          chunk.release();
          done.accept(null);
          return;
        }
        if (n > 0) {
          if (buf.hasArray()) {
            body.write(buf.array(), buf.arrayOffset() + buf.position(), n);
          } else {
            byte[] tmp = new byte[n];
            buf.get(tmp);
            body.write(tmp, 0, n);
          }
        }
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          done.accept(body.toByteArray());
          return;
        }
      }
    }
  }
}
