package dev.herald.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class InMemoryTransportTest {

  /** Records frames, the reader threads they came on, overlapping calls, and closes. */
  static final class Recorder implements Transport.Receiver {
    final List<DecodedMessage> frames = new CopyOnWriteArrayList<>();
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    final CompletableFuture<@Nullable Throwable> closed = new CompletableFuture<>();
    final CountDownLatch expected;

    Recorder(int expectedFrames) {
      expected = new CountDownLatch(expectedFrames);
    }

    @Override
    public void onFrame(DecodedMessage frame) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      threads.add(Thread.currentThread());
      frames.add(frame);
      inside.decrementAndGet();
      expected.countDown();
    }

    @Override
    public void onClose(@Nullable Throwable cause) {
      closes.incrementAndGet();
      closed.complete(cause);
    }

    void awaitFrames() throws InterruptedException {
      assertThat(expected.await(5, TimeUnit.SECONDS)).as("all frames arrived").isTrue();
    }
  }

  private static JsonRpcMessage.Notification note(int i) {
    return new JsonRpcMessage.Notification("n/" + i, null);
  }

  @Test
  void aSentMessageIsEncodedRecordedAndDecodedByTheOtherEnd() throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    Recorder server = new Recorder(1);
    pair.server().start(server);
    JsonRpcMessage.Request request =
        new JsonRpcMessage.Request(RequestId.of("a"), "tools/call", McpJson.object().put("x", 1));

    pair.client().send(request, null);
    server.awaitFrames();

    assertThat(server.frames).containsExactly(new DecodedMessage.Valid(request));
    assertThat(pair.client().sent()).containsExactly(MessageCodec.encodeToString(request));
    assertThat(pair.server().sent()).isEmpty();
  }

  @Test
  void framesArriveInOrderOneAtATimeOnOneReaderThread() throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    Recorder server = new Recorder(1000);
    pair.server().start(server);

    for (int i = 0; i < 1000; i++) {
      pair.client().send(note(i), null);
    }
    server.awaitFrames();

    assertThat(server.frames)
        .extracting(
            f -> ((JsonRpcMessage.Notification) ((DecodedMessage.Valid) f).message()).method())
        .containsExactlyElementsOf(
            java.util.stream.IntStream.range(0, 1000).mapToObj(i -> "n/" + i).toList());
    assertThat(server.threads)
        .hasSize(1)
        .allSatisfy(t -> assertThat(t).isNotEqualTo(Thread.currentThread()));
    assertThat(server.overlaps).hasValue(0);
  }

  @Test
  void anInjectedRawFrameIsDecodedLikeAnyOther() throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    Recorder server = new Recorder(2);
    pair.server().start(server);

    pair.server().inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
    pair.server()
        .inject(
            "{\"jsonrpc\":\"2.0\",\"method\":\"ok\"}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    server.awaitFrames();

    assertThat(server.frames.get(0))
        .isInstanceOfSatisfying(
            DecodedMessage.Invalid.class,
            bad -> assertThat(bad.error().code()).isEqualTo(ErrorCodes.PARSE_ERROR));
    assertThat(server.frames.get(1))
        .isEqualTo(new DecodedMessage.Valid(new JsonRpcMessage.Notification("ok", null)));
    assertThat(pair.client().sent())
        .as("an injected frame is not something the peer sent")
        .isEmpty();
  }

  @Test
  void closingOneEndClosesBothOnceAndLaterSendsFail() throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    Recorder client = new Recorder(0);
    Recorder server = new Recorder(3);
    pair.client().start(client);
    pair.server().start(server);
    for (int i = 0; i < 3; i++) {
      pair.client().send(note(i), null);
    }

    pair.client().close();
    pair.client().close();
    pair.server().close();

    assertThat(client.closed.get(5, TimeUnit.SECONDS)).isNull();
    assertThat(server.closed.get(5, TimeUnit.SECONDS)).isNull();
    assertThat(server.frames).as("what was sent before the close is still read").hasSize(3);
    assertThat(client.closes).hasValue(1);
    assertThat(server.closes).hasValue(1);
    assertThat(pair.client().isClosed()).isTrue();
    assertThat(pair.server().isClosed()).isTrue();
    assertThatThrownBy(() -> pair.client().send(note(9), null))
        .isInstanceOf(TransportException.class);
    assertThatThrownBy(() -> pair.server().send(note(9), null))
        .isInstanceOf(TransportException.class);
    assertThatThrownBy(() -> pair.server().inject("{}")).isInstanceOf(TransportException.class);
  }

  @Test
  void anEndCanBeStartedOnlyOnce() {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    pair.client().start(new Recorder(0));
    assertThatThrownBy(() -> pair.client().start(new Recorder(0)))
        .isInstanceOf(IllegalStateException.class);
    pair.client().close();
  }
}
