package dev.herald.http.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Reads a request body with a {@link ReadListener}: the container calls back as bytes arrive, so
 * no thread waits on a slow sender. Stops at the limit.
 *
 * <p>Called by the container, one callback at a time; {@link #over} makes the outcome reported
 * once.
 */
final class ServletBody implements ReadListener {
  private final ServletInputStream in;
  private final int max;
  private final Consumer<byte @Nullable []> done;
  private final Consumer<Throwable> failed;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream(512);
  private final byte[] buffer = new byte[8192];
  private boolean over;

  ServletBody(ServletInputStream in, int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
    this.in = in;
    this.max = max;
    this.done = done;
    this.failed = failed;
  }

  void start() {
    in.setReadListener(this);
  }

  @Override
  public void onDataAvailable() throws IOException {
    while (!over && in.isReady() && !in.isFinished()) {
      int n = in.read(buffer);
      if (n < 0) {
        return; // onAllDataRead follows
      }
      if (body.size() + (long) n > max) {
        over = true;
        done.accept(null);
        return;
      }
      body.write(buffer, 0, n);
    }
  }

  @Override
  public void onAllDataRead() {
    if (!over) {
      over = true;
      done.accept(body.toByteArray());
    }
  }

  @Override
  public void onError(Throwable cause) {
    if (!over) {
      over = true;
      failed.accept(cause);
    }
  }
}
