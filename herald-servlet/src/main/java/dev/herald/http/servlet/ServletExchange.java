package dev.herald.http.servlet;

import dev.herald.http.internal.Exchange;
import dev.herald.session.Scheduler;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Exchange} over a Servlet 6 request in async mode.
 *
 * <p>Design note (Jakarta Servlet 6.0, section 2.3.3.4, non-blocking IO). Every exchange is started
 * async by {@link McpServlet}, so the container thread returns at once and the response ends with
 * {@link AsyncContext#complete}. Writes use the {@link WriteListener}: {@link #write} parks the
 * one pending buffer and {@link #pump} moves it out while {@link ServletOutputStream#isReady}
 * allows, then flushes; when the stream is not ready the container calls {@link
 * #onWritePossible} later and the pump goes on there. The pump's completion callback is called
 * after the lock is released. A failed write, or an {@link AsyncListener#onError}, is the peer
 * going away. Servlets cannot drop a connection, so {@link #abort} completes the exchange. A body
 * over the limit is read and discarded before the exchange completes (at most {@link
 * Exchange#DRAIN_BYTES} or {@link Exchange#DRAIN_MILLIS}), and a response that ends before its body was
 * read says {@code Connection: close} (RFC 9112 section 9.6): a container closing a connection
 * with unread bytes resets it, and a client still sending would lose the answer.
 *
 * <p>Thread-safe: {@link #lock} guards the pending write, which may be touched by the writer's
 * thread and the container's callback at once; it is only held around non-blocking calls.
 */
final class ServletExchange implements Exchange, WriteListener, AsyncListener {
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final AsyncContext async;
  private final String path;
  private final String mountPrefix;
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicBoolean gone = new AtomicBoolean();
  private final AtomicBoolean bodyRead = new AtomicBoolean();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean drained = new AtomicBoolean();
  private final AtomicBoolean responseEnded = new AtomicBoolean();
  private final AtomicBoolean readStarted = new AtomicBoolean();
  private final List<Consumer<Throwable>> goneListeners = new CopyOnWriteArrayList<>();
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private @Nullable ServletOutputStream out;
  private @Nullable ByteBuffer pending;
  private boolean pendingLast;
  private boolean flushed;
  private @Nullable Done pendingDone;

  ServletExchange(HttpServletRequest request, HttpServletResponse response, AsyncContext async) {
    this.request = request;
    this.response = response;
    this.async = async;
    String info = request.getPathInfo();
    this.path = info == null ? "/" : info;
    this.mountPrefix = request.getContextPath() + request.getServletPath();
    async.addListener(this);
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String mountPrefix() {
    return mountPrefix;
  }

  @Override
  public int localPort() {
    return request.getLocalPort();
  }

  @Override
  public String remoteAddress() {
    String a = request.getRemoteAddr();
    return a == null ? "" : a;
  }

  @Override
  public @Nullable String header(String name) {
    return request.getHeader(name);
  }

  @Override
  public List<String> headers(String name) {
    return Collections.list(request.getHeaders(name));
  }

  @Override
  public @Nullable String queryParameter(String name) {
    return request.getParameter(name);
  }

  @Override
  public long contentLength() {
    return request.getContentLengthLong();
  }

  @Override
  public void readBody(int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
    readStarted.set(true);
    try {
      new ServletBody(
              request.getInputStream(),
              max,
              body -> {
                if (body != null) {
                  bodyRead.set(true);
                }
                done.accept(body);
              },
              failed,
              this::startDraining,
              this::stopDraining,
              drained::get)
          .start();
    } catch (IOException | IllegalStateException e) {
      failed.accept(e);
    }
  }

  @Override
  public void status(int status) {
    response.setStatus(status);
  }

  @Override
  public void header(String name, String value) {
    switch (name) {
      case "Content-Type" -> response.setContentType(value);
      case "Content-Length" -> response.setContentLengthLong(Long.parseLong(value));
      default -> response.setHeader(name, value);
    }
  }

  @Override
  public void write(ByteBuffer data, boolean last, Done done) {
    if (ended.get()) {
      done.failed(new IOException("exchange already ended"));
      return;
    }
    ServletOutputStream first = null;
    Exception failure = null;
    lock.lock();
    try {
      if (out == null) {
        if (last && !bodyRead.get() && hasBody()) {
          // Answered before the body was read to its end (a refusal): the container will not keep
          // this connection, so say so, or a client may send its next request on a closing one.
          response.setHeader("Connection", "close");
        }
        try {
          first = response.getOutputStream();
          out = first;
        } catch (IOException | IllegalStateException e) {
          failure = e;
        }
      }
      if (failure == null) {
        pending = data;
        pendingLast = last;
        pendingDone = done;
        flushed = false;
      }
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      failWrite(failure, done);
    } else if (first != null) {
      first.setWriteListener(this); // the container calls onWritePossible
    } else {
      pump();
    }
  }

  @Override
  public void onWritePossible() {
    pump();
  }

  /** Moves the pending buffer out while the stream is ready; completes it once flushed. */
  private void pump() {
    Done complete = null;
    boolean last = false;
    IOException failure = null;
    lock.lock();
    try {
      ServletOutputStream o = out;
      while (o != null && pendingDone != null && o.isReady()) {
        ByteBuffer b = pending;
        if (b != null && b.hasRemaining()) {
          int n = b.remaining();
          if (b.hasArray()) {
            o.write(b.array(), b.arrayOffset() + b.position(), n);
            b.position(b.limit());
          } else {
            byte[] copy = new byte[n];
            b.get(copy);
            o.write(copy);
          }
        } else if (!flushed) {
          flushed = true;
          o.flush();
        } else {
          complete = pendingDone;
          last = pendingLast;
          pendingDone = null;
          pending = null;
        }
      }
    } catch (IOException e) {
      failure = e;
      complete = pendingDone;
      pendingDone = null;
      pending = null;
    } finally {
      lock.unlock();
    }
    if (complete == null) {
      return;
    }
    if (failure != null) {
      failWrite(failure, complete);
      return;
    }
    if (last) {
      if (!readStarted.get()
          && hasBody()
          && !"100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
        discardUnread(); // refused before its body was read, and the client sends it anyway
      }
      responseEnded.set(true);
      finish();
    }
    complete.succeeded();
  }

  @Override
  public void onError(Throwable cause) {
    Done d;
    lock.lock();
    try {
      d = pendingDone;
      pendingDone = null;
      pending = null;
    } finally {
      lock.unlock();
    }
    if (d != null) {
      failWrite(cause, d);
    } else {
      peerGone(cause);
      end();
    }
  }

  private void failWrite(Throwable cause, Done done) {
    peerGone(cause);
    end();
    done.failed(cause);
  }

  @Override
  public void abort(Throwable cause) {
    end();
  }

  @Override
  public void onPeerGone(Consumer<Throwable> listener) {
    goneListeners.add(listener);
  }

  @Override
  public void keepOpen() {
    async.setTimeout(0);
  }

  private boolean hasBody() {
    return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
  }

  /** Ends the exchange once the response is written and any body over the limit is drained. */
  private void finish() {
    if (responseEnded.get() && (!draining.get() || drained.get())) {
      end();
    }
  }

  /** A body over the limit is being discarded: the exchange ends after it, or after a short time. */
  private void startDraining() {
    draining.set(true);
    Scheduler.system().schedule(this::stopDraining, TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
  }

  private void discardUnread() {
    startDraining();
    try {
      new ServletBody(
              request.getInputStream(),
              -1,
              body -> {},
              failure -> {},
              () -> {},
              this::stopDraining,
              drained::get)
          .start();
    } catch (IOException | IllegalStateException e) {
      stopDraining();
    }
  }

  private void stopDraining() {
    drained.set(true);
    finish();
  }

  private void peerGone(Throwable cause) {
    if (gone.compareAndSet(false, true)) {
      for (Consumer<Throwable> l : goneListeners) {
        l.accept(cause);
      }
    }
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      try {
        async.complete();
      } catch (IllegalStateException alreadyDone) {
        // the container ended it first (an error dispatch); nothing left to do
      }
    }
  }

  // ---------------------------------------------------------------- AsyncListener

  @Override
  public void onComplete(AsyncEvent event) {
    ended.set(true);
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    peerGone(new IOException("async timeout"));
    end();
  }

  @Override
  public void onError(AsyncEvent event) {
    Throwable t = event.getThrowable();
    onError(t == null ? new IOException("connection failed") : t);
  }

  @Override
  public void onStartAsync(AsyncEvent event) {}
}
