package dev.herald.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A response body as an {@link InputStream} that asks for the next piece only when its reader has
 * used up the last one: on an {@link Http1Client} the reader's {@code read} then reads the socket
 * itself. {@link Http1Client} uses it in place of {@link
 * HttpResponse.BodySubscribers#ofInputStream()}, which asks for a piece ahead of its reader (right
 * for a client that reads on a thread of its own; on this one it would keep a reader waiting for
 * the piece after the one it needs).
 *
 * <p>Threading: one reader at a time; {@link #close} from any thread (it cancels the
 * subscription, which closes the connection and so unblocks a read in progress). Fields guarded by
 * {@link #lock}.
 */
final class Http1BodyStream extends InputStream
    implements HttpResponse.BodySubscriber<InputStream> {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<ByteBuffer> pieces = new ArrayDeque<>();
  private Flow.@Nullable Subscription subscription;
  private @Nullable ByteBuffer current;
  private @Nullable Throwable failure;
  private boolean complete;
  private boolean requested;
  private volatile boolean closed;

  @Override
  public CompletionStage<InputStream> getBody() {
    return CompletableFuture.completedFuture(this);
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    lock.lock();
    try {
      subscription = s;
    } finally {
      lock.unlock();
    }
    if (closed) {
      s.cancel();
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    lock.lock();
    try {
      requested = false;
      pieces.addAll(items);
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onError(Throwable t) {
    lock.lock();
    try {
      failure = t;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onComplete() {
    lock.lock();
    try {
      complete = true;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The piece to read from, or null at the end of the body. */
  private @Nullable ByteBuffer current() throws IOException {
    while (true) {
      Flow.Subscription ask = null;
      lock.lock();
      try {
        ByteBuffer c = current;
        if (c != null && c.hasRemaining()) {
          return c;
        }
        if (closed) {
          throw new IOException("stream closed");
        }
        current = pieces.pollFirst();
        if (current != null) {
          continue;
        }
        if (failure != null) {
          throw failure instanceof IOException io ? io : new IOException(failure);
        }
        if (complete) {
          return null;
        }
        if (!requested && subscription != null) {
          requested = true;
          ask = subscription;
        } else {
          arrived.await();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while reading the response body", e);
      } finally {
        lock.unlock();
      }
      if (ask != null) {
        ask.request(1); // on an Http1Client: reads the socket here, on the reader's thread
      }
    }
  }

  @Override
  public int read() throws IOException {
    ByteBuffer c = current();
    return c == null ? -1 : c.get() & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    ByteBuffer c = current();
    if (c == null) {
      return -1;
    }
    int n = Math.min(len, c.remaining());
    c.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    lock.lock();
    try {
      ByteBuffer c = current;
      return c == null ? 0 : c.remaining();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    Flow.Subscription s;
    lock.lock();
    try {
      s = subscription;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.cancel();
    }
  }
}
