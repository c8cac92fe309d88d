package dev.herald.http.servlet;

import dev.herald.http.internal.Exchange;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Reads a request body with a {@link ReadListener}: the container calls back as bytes arrive, so
 * no thread waits on a slow sender. At the limit it reports the body too large and goes on reading
 * and discarding the rest, within bounds, so the exchange can end without an abortive close.
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
  private final Runnable draining;
  private final Runnable drained;
  private final BooleanSupplier stop;
  private boolean over;
  private long discarded = -1;

  /**
   * @param max the limit; negative to discard the whole body (it was refused unread)
   * @param draining told when the body is over the limit, before {@code done} hears it: the rest
   *     is read and discarded from then on
   * @param drained told once when discarding ends (the body's end, a failure, or the byte bound)
   * @param stop whether to stop discarding (the exchange's time bound passed)
   */
  ServletBody(
      ServletInputStream in,
      int max,
      Consumer<byte @Nullable []> done,
      Consumer<Throwable> failed,
      Runnable draining,
      Runnable drained,
      BooleanSupplier stop) {
    this.in = in;
    this.max = max;
    this.done = done;
    this.failed = failed;
    this.draining = draining;
    this.drained = drained;
    this.stop = stop;
    if (max < 0) { // only discard: a body refused before it was read
      over = true;
      discarded = 0;
    }
  }

  void start() {
    in.setReadListener(this);
  }

  @Override
  public void onDataAvailable() throws IOException {
    while (in.isReady() && !in.isFinished()) {
      if (discarded >= 0 && stop.getAsBoolean()) {
        return;
      }
      int n = in.read(buffer);
      if (n < 0) {
        return; // onAllDataRead follows
      }
      if (discarded >= 0) {
        discarded += n;
        if (discarded > Exchange.DRAIN_BYTES) {
          drained.run();
          return;
        }
        continue;
      }
      if (body.size() + (long) n > max) {
        // Read and discard the rest before the exchange ends: closing with unread bytes makes the
        // close abortive (a TCP reset), and a client still sending would lose the 413 with it.
        over = true;
        discarded = 0;
        draining.run();
        done.accept(null);
        continue;
      }
      body.write(buffer, 0, n);
    }
  }

  @Override
  public void onAllDataRead() {
    if (!over) {
      over = true;
      done.accept(body.toByteArray());
    } else if (discarded >= 0) {
      drained.run();
    }
  }

  @Override
  public void onError(Throwable cause) {
    if (!over) {
      over = true;
      failed.accept(cause);
    } else if (discarded >= 0) {
      drained.run();
    }
  }
}
