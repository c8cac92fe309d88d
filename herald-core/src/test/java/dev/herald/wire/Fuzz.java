package dev.herald.wire;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Shared pieces of the property-based fuzzers ({@code *FuzzTest}, jqwik): generators that mutate
 * valid inputs the way a hostile or broken peer would (bit flips, truncations, insertions of bytes
 * that matter to a decoder, huge numbers, deep nesting), and a per-try time bound so a hang fails
 * the try that caused it instead of the build.
 *
 * <p>How many tries each property makes is jqwik's {@code jqwik.tries.default} (the test
 * resources' {@code junit-platform.properties}; {@code scripts/fuzz} raises it). jqwik prints the
 * seed of every failure; a failure found is kept as an {@code @Example} beside its property.
 */
@SuppressWarnings("exports") // test-only helpers, shared by the fuzzers of every package
public final class Fuzz {
  /** How long one try may take before it counts as a hang. */
  public static final Duration TRY_LIMIT = Duration.ofSeconds(10);

  /** Bytes a decoder treats specially: structure, escapes, line ends, UTF-8 leads and tails. */
  private static final byte[] SPECIAL = {
    0,
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '\n',
    '\r',
    ' ',
    '.',
    '_',
    '=',
    '?',
    '%',
    '/',
    '+',
    '-',
    'e',
    '0',
    '9',
    (byte) 0x7F,
    (byte) 0x80,
    (byte) 0xBF,
    (byte) 0xC0,
    (byte) 0xC1,
    (byte) 0xC2,
    (byte) 0xE0,
    (byte) 0xED,
    (byte) 0xEF,
    (byte) 0xF0,
    (byte) 0xF4,
    (byte) 0xF5,
    (byte) 0xFE,
    (byte) 0xFF
  };

  /** Characters that matter to tokens and headers: separators, padding, escapes, non-ASCII. */
  private static final String ODD_CHARS = "=.-_~/+%\u00e9\u0000\ud800\uFEFF\u202E";

  /** Fragments that stress a JSON reader: huge or odd numbers, deep nesting, odd literals. */
  private static final List<String> FRAGMENTS =
      List.of(
          "1e999999999",
          "-1e-999999999",
          "99999999999999999999999999999999",
          "9223372036854775808",
          "-9223372036854775809",
          "1.7976931348623157e309",
          "NaN",
          "-0",
          "0.0000000000000000000000001",
          "\"\\ud800\"",
          "\"\\u0000\"",
          "\"\\uDBFF\\uDFFF\"",
          "null",
          "true",
          "[]",
          "{}",
          "\"\"",
          "[".repeat(200),
          "{\"a\":".repeat(200),
          "]".repeat(50),
          "\uFEFF",
          "\u202E",
          "\"jsonrpc\":\"2.0\"",
          "\"id\":",
          "\"method\":",
          "\"params\":",
          "\"_meta\":{}",
          "\"x\":\"" + "A".repeat(5000) + "\"");

  private static final AtomicReference<ExecutorService> WORKER = new AtomicReference<>(newWorker());

  private Fuzz() {}

  /** Runs one try with {@link #TRY_LIMIT}; a try that takes longer fails as a hang. */
  public static <T> T bounded(Callable<T> body) {
    ExecutorService w = WORKER.get();
    Future<T> f = w.submit(body);
    try {
      return f.get(TRY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      if (WORKER.compareAndSet(w, newWorker())) {
        w.shutdownNow(); // the hung thread is abandoned with its executor
      }
      throw new AssertionError("hang: one try took longer than " + TRY_LIMIT, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new AssertionError(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Runs one try with {@link #TRY_LIMIT}. */
  public static void bounded(Runnable body) {
    bounded(() -> {
      body.run();
      return null;
    });
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fuzz-try");
      t.setDaemon(true);
      return t;
    });
  }

  /** Arbitrary bytes, short and long, with jqwik's edge cases (empty, single bytes). */
  public static Arbitrary<byte[]> randomBytes(int maxSize) {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(maxSize);
  }

  /** Each of {@code valid} mutated one to six times. */
  public static Arbitrary<byte[]> mutated(Arbitrary<byte[]> valid) {
    return Combinators.combine(valid, Arbitraries.longs()).as((v, seed) -> mutate(v, seed));
  }

  /** Each of {@code valid} (strings) mutated one to six times, as UTF-8 bytes and back. */
  public static Arbitrary<String> mutatedText(Arbitrary<String> valid) {
    return Combinators.combine(valid, Arbitraries.longs()).as((v, seed) -> mutateText(v, seed));
  }

  /** The same mutations as {@link #mutated}, drawn from {@code seed}. */
  public static byte[] mutate(byte[] input, long seed) {
    Random random = new Random(seed);
    byte[] out = input;
    int rounds = 1 + random.nextInt(6);
    for (int r = 0; r < rounds; r++) {
      out = mutateOnce(out, random);
    }
    return out;
  }

  /**
   * Character-level mutations of a string (for cursors, tokens, header values): flips, cuts,
   * insertions of special and non-ASCII characters, duplications.
   */
  public static String mutateText(String input, long seed) {
    Random random = new Random(seed);
    StringBuilder s = new StringBuilder(input);
    int rounds = 1 + random.nextInt(4);
    for (int r = 0; r < rounds; r++) {
      int at = s.isEmpty() ? 0 : random.nextInt(s.length() + 1);
      switch (random.nextInt(7)) {
        case 0 -> { // flip one bit of one character
          if (at < s.length()) {
            s.setCharAt(at, (char) (s.charAt(at) ^ (1 << random.nextInt(7))));
          }
        }
        case 1 -> s.setLength(random.nextInt(s.length() + 1)); // truncate
        case 2 -> s.insert(at, (char) (SPECIAL[random.nextInt(SPECIAL.length)] & 0xFF));
        case 3 -> s.insert(at, ODD_CHARS.charAt(random.nextInt(ODD_CHARS.length())));
        case 4 -> { // replace one character by another of the base64url alphabet
          if (at < s.length()) {
            String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            s.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
          }
        }
        case 5 -> { // duplicate a slice
          int from = s.isEmpty() ? 0 : random.nextInt(s.length());
          int to = Math.min(s.length(), from + random.nextInt(16));
          s.insert(at, s.substring(from, to));
        }
        default -> { // delete a slice
          int to = Math.min(s.length(), at + 1 + random.nextInt(8));
          if (at < to) {
            s.delete(at, to);
          }
        }
      }
    }
    return s.toString();
  }

  private static byte[] mutateOnce(byte[] in, Random random) {
    int at = in.length == 0 ? 0 : random.nextInt(in.length + 1);
    switch (random.nextInt(8)) {
      case 0 -> { // flip one bit
        if (in.length == 0) {
          return new byte[] {(byte) random.nextInt(256)};
        }
        byte[] out = in.clone();
        int i = random.nextInt(in.length);
        out[i] = (byte) (out[i] ^ (1 << random.nextInt(8)));
        return out;
      }
      case 1 -> {
        return Arrays.copyOf(in, random.nextInt(in.length + 1)); // truncate
      }
      case 2 -> {
        return insert(in, at, new byte[] {SPECIAL[random.nextInt(SPECIAL.length)]});
      }
      case 3 -> {
        String f = FRAGMENTS.get(random.nextInt(FRAGMENTS.size()));
        return insert(in, at, f.getBytes(StandardCharsets.UTF_8));
      }
      case 4 -> { // an overlong or surrogate UTF-8 form
        byte[][] bad = {
          {(byte) 0xC0, (byte) 0xAE},
          {(byte) 0xE0, (byte) 0x80, (byte) 0xAE},
          {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
          {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
          {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
          {(byte) 0xFE, (byte) 0xFF}
        };
        return insert(in, at, bad[random.nextInt(bad.length)]);
      }
      case 5 -> { // duplicate a slice
        if (in.length == 0) {
          return in;
        }
        int from = random.nextInt(in.length);
        int to = Math.min(in.length, from + 1 + random.nextInt(32));
        return insert(in, at, Arrays.copyOfRange(in, from, to));
      }
      case 6 -> { // delete a slice
        int to = Math.min(in.length, at + 1 + random.nextInt(16));
        if (at >= to) {
          return in;
        }
        byte[] out = new byte[in.length - (to - at)];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(in, to, out, at, in.length - to);
        return out;
      }
      default -> { // overwrite one byte with a random one
        if (in.length == 0) {
          return in;
        }
        byte[] out = in.clone();
        out[random.nextInt(in.length)] = (byte) random.nextInt(256);
        return out;
      }
    }
  }

  private static byte[] insert(byte[] in, int at, byte[] what) {
    byte[] out = new byte[in.length + what.length];
    System.arraycopy(in, 0, out, 0, at);
    System.arraycopy(what, 0, out, at, what.length);
    System.arraycopy(in, at, out, at + what.length, in.length - at);
    return out;
  }
}
