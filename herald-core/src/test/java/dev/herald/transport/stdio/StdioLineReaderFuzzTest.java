package dev.herald.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.transport.Transport;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.Fuzz;
import dev.herald.wire.MessageCodec;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * Fuzzes the stdio transport's line reader (MCP basic/transports §stdio) with random and mutated
 * input arriving in random chunks: it delivers exactly one frame per non-blank line, each what the
 * codec makes of that line (an oversized line becomes one invalid frame), and it ends in order,
 * never with a failure, whatever the bytes.
 */
class StdioLineReaderFuzzTest {
  private static final int MAX_LINE = 1024;

  @Provide
  Arbitrary<byte[]> inputs() {
    Arbitrary<byte[]> lines =
        Arbitraries.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r",
                "  \t{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}",
                "",
                "   ",
                "[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"n\":1e5}}}",
                "x".repeat(MAX_LINE - 1) + "\r",
                "y".repeat(MAX_LINE + 1))
            .list()
            .ofMaxSize(8)
            .map(l -> String.join("\n", l).getBytes(StandardCharsets.UTF_8));
    return Arbitraries.oneOf(lines, Fuzz.mutated(lines), Fuzz.randomBytes(3000));
  }

  @Property
  void oneFrameForEachNonBlankLineAndAnOrderlyEnd(
      @ForAll("inputs") byte[] input, @ForAll long cuts) {
    Read read = Fuzz.bounded(() -> read(input, new Random(cuts)));
    assertThat(read.failure).isNull();
    assertThat(read.frames).isEqualTo(expected(input));
  }

  /**
   * Found by {@code MessageCodecFuzzTest}: a number with an exponent beyond int range made the
   * codec throw, and the stdio reader ended the connection with that failure.
   */
  @Example
  void aNumberOutOfRangeIsAnsweredAndTheReaderGoesOn() {
    byte[] input =
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":0e+2147483648}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
            .getBytes(StandardCharsets.UTF_8);
    Read read = read(input, new Random(1));
    assertThat(read.failure).isNull();
    assertThat(read.frames).hasSize(2);
    assertThat(read.frames.get(0)).isInstanceOf(DecodedMessage.Invalid.class);
    assertThat(read.frames.get(1)).isInstanceOf(DecodedMessage.Valid.class);
  }

  record Read(List<DecodedMessage> frames, @Nullable Throwable failure) {}

  static Read read(byte[] input, Random cuts) {
    List<DecodedMessage> frames = new CopyOnWriteArrayList<>();
    CompletableFuture<@Nullable Throwable> closed = new CompletableFuture<>();
    StdioTransport transport =
        StdioTransport.of(new ChunkedInput(input, cuts), new ByteArrayOutputStream(), MAX_LINE);
    transport.start(
        new Transport.Receiver() {
          @Override
          public void onFrame(DecodedMessage frame) {
            frames.add(frame);
          }

          @Override
          public void onClose(@Nullable Throwable cause) {
            closed.complete(cause);
          }
        });
    try {
      Throwable failure = closed.get(Fuzz.TRY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      return new Read(List.copyOf(frames), failure);
    } catch (Exception e) {
      throw new AssertionError("the reader did not end", e);
    } finally {
      transport.close();
    }
  }

  /** The model: split at LF; a line longer than the limit is one invalid frame; blanks skipped. */
  static List<DecodedMessage> expected(byte[] input) {
    List<DecodedMessage> frames = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= input.length; i++) {
      if (i < input.length && input[i] != '\n') {
        continue;
      }
      if (i == input.length && start == i) {
        break;
      }
      int len = i - start;
      if (len > MAX_LINE) {
        frames.add(null); // an oversized line: checked by kind below
      } else {
        int end = i;
        if (end > start && input[end - 1] == '\r') {
          end--;
        }
        int begin = start;
        while (begin < end && (input[begin] == ' ' || input[begin] == '\t')) {
          begin++;
        }
        if (begin < end) {
          frames.add(MessageCodec.decode(Arrays.copyOfRange(input, begin, end)));
        }
      }
      start = i + 1;
    }
    List<DecodedMessage> out = new ArrayList<>();
    for (DecodedMessage f : frames) {
      out.add(f == null ? OVERSIZED : f);
    }
    return out;
  }

  private static final DecodedMessage OVERSIZED =
      new DecodedMessage.Invalid(
          null,
          new dev.herald.wire.JsonRpcMessage.ErrorObject(
              dev.herald.wire.ErrorCodes.INVALID_REQUEST,
              "Invalid request: message longer than " + MAX_LINE + " bytes",
              null),
          true);

  /** Hands out the input in random chunk sizes, as a pipe does. */
  private static final class ChunkedInput extends InputStream {
    private final byte[] data;
    private final Random cuts;
    private int at;

    ChunkedInput(byte[] data, Random cuts) {
      this.data = data;
      this.cuts = cuts;
    }

    @Override
    public int read() {
      return at < data.length ? data[at++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (at >= data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, data.length - at), 1 + cuts.nextInt(700));
      System.arraycopy(data, at, b, off, n);
      at += n;
      return n;
    }
  }
}
