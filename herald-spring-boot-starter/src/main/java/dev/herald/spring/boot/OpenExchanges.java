package dev.herald.spring.boot;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the endpoint's HTTP exchanges other than {@code GET} streams until the container has
 * completed them, response written. Design note: a handler that returned has not yet had its
 * response written (the session engine sends it after the interceptor chain returns, and on an
 * SSE stream the write is asynchronous); ending the sessions at that moment would cut the answer
 * off. The graceful shutdown therefore waits for this count too. The filter wraps the request so
 * that it sees {@code McpServlet}'s own {@code startAsync()} and listens to that async cycle from
 * its start. Standing {@code GET} streams are not counted: the shutdown ends them.
 *
 * <p>Thread-safe.
 */
final class OpenExchanges implements Filter {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition none = lock.newCondition();

  /** Exchanges begun and not completed (guarded by {@link #lock}). */
  private int open;

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest http) || http.getMethod().equals("GET")) {
      chain.doFilter(request, response);
      return;
    }
    Counted counted = new Counted(http);
    opened();
    try {
      chain.doFilter(counted, response);
    } finally {
      if (!counted.async) {
        counted.ended();
      }
    }
  }

  /** Exchanges open now. */
  int open() {
    lock.lock();
    try {
      return open;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until no counted exchange is open, or {@code timeout} has passed.
   *
   * @return whether none is open
   * @throws InterruptedException if the waiting thread is interrupted
   */
  boolean awaitNone(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (open > 0) {
        if (left <= 0) {
          return false;
        }
        left = none.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void opened() {
    lock.lock();
    try {
      open++;
    } finally {
      lock.unlock();
    }
  }

  private void closed() {
    lock.lock();
    try {
      if (--open == 0) {
        none.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The request as the servlet sees it: its async cycle reports its end here. */
  private final class Counted extends HttpServletRequestWrapper implements AsyncListener {
    private final AtomicBoolean done = new AtomicBoolean();

    /** Set on the container thread that runs the filter and the servlet. */
    private boolean async;

    Counted(HttpServletRequest request) {
      super(request);
    }

    @Override
    public AsyncContext startAsync() {
      AsyncContext context = super.startAsync();
      context.addListener(this);
      async = true;
      return context;
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
      AsyncContext context = super.startAsync(request, response);
      context.addListener(this);
      async = true;
      return context;
    }

    void ended() {
      if (done.compareAndSet(false, true)) {
        closed();
      }
    }

    @Override
    public void onComplete(AsyncEvent event) {
      ended();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      ended();
    }

    @Override
    public void onError(AsyncEvent event) {
      ended();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {}
  }
}
