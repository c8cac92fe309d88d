package dev.herald.transport.http;

import dev.herald.transport.Transport;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** Records frames (as compact JSON) and the close; checks that delivery never overlaps. */
final class RecordingReceiver implements Transport.Receiver {
  final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  final List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());
  final CompletableFuture<@Nullable Throwable> closed = new CompletableFuture<>();
  final AtomicInteger closes = new AtomicInteger();
  final AtomicInteger framesAfterClose = new AtomicInteger();

  /** The name of the thread each frame was delivered on, in order. */
  final List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());

  private final AtomicBoolean delivering = new AtomicBoolean();
  volatile boolean overlapped;

  @Override
  public void onFrame(DecodedMessage frame) {
    if (!delivering.compareAndSet(false, true)) {
      overlapped = true;
    }
    try {
      if (closed.isDone()) {
        framesAfterClose.incrementAndGet();
      }
      String text =
          switch (frame) {
            case DecodedMessage.Valid v -> MessageCodec.encodeToString(v.message());
            case DecodedMessage.Invalid i -> "invalid: " + i.error().message();
            case DecodedMessage.Batch b -> "batch of " + b.items().size();
          };
      threads.add(Thread.currentThread().getName());
      all.add(text);
      frames.add(text);
    } finally {
      delivering.set(false);
    }
  }

  @Override
  public void onClose(@Nullable Throwable cause) {
    closes.incrementAndGet();
    closed.complete(cause);
  }

  /** The next frame, waiting up to five seconds. */
  String next() throws InterruptedException {
    String f = frames.poll(5, TimeUnit.SECONDS);
    if (f == null) {
      throw new AssertionError("no frame arrived; got so far: " + all);
    }
    return f;
  }

  /** The close cause, waiting up to five seconds; fails if the transport never closed. */
  @Nullable Throwable awaitClose() throws Exception {
    return closed.get(5, TimeUnit.SECONDS);
  }

  static String encode(JsonRpcMessage m) {
    return MessageCodec.encodeToString(m);
  }
}
