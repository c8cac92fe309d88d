package dev.herald.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProgressToken;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The progress hot path encodes straight to bytes; these must be exactly what the general
 * encoder writes for the same notification, for every kind of number, token and message.
 */
class ProgressEncodingTest {

  private static void sameAsTheGeneralEncoder(
      ProgressToken token, double progress, @Nullable Double total, @Nullable String message) {
    EncodedMessage fast = ProgressEmitter.encode(token, progress, total, message);
    JsonRpcMessage.Notification tree =
        ProgressEmitter.notification(token, progress, total, message);
    assertThat(new String(fast.bytes(), StandardCharsets.UTF_8))
        .as("progress %s total %s message %s token %s", progress, total, message, token)
        .isEqualTo(new String(MessageCodec.encode(tree), StandardCharsets.UTF_8));
    assertThat(fast.isNotification()).isTrue();
    assertThat(fast.message()).isEqualTo(tree);
  }

  @Test
  void fastBytesEqualTheGeneralEncodingForEveryKindOfNumber() {
    List<Double> values =
        new ArrayList<>(
            List.of(
                0.0,
                -0.0,
                1.0,
                2.5,
                0.001,
                0.0001,
                1e-7,
                9_999_999.0,
                10_000_000.0,
                1e7 + 0.5,
                1e21,
                1e22,
                123456789012.0,
                -1.0,
                -0.5,
                -1e9,
                Double.MIN_VALUE,
                Double.MAX_VALUE,
                1.0 / 3,
                100.0,
                99.99,
                4.9e-324,
                0.1 + 0.2));
    SplittableRandom random = new SplittableRandom(15);
    for (int i = 0; i < 2_000; i++) {
      values.add(random.nextDouble() * Math.pow(10, random.nextInt(-12, 24)));
      values.add((double) random.nextLong(0, 1L << 53));
      values.add(Double.longBitsToDouble(random.nextLong()));
    }
    for (double v : values) {
      if (!Double.isFinite(v)) {
        continue;
      }
      sameAsTheGeneralEncoder(ProgressToken.of("tok"), v, null, null);
      sameAsTheGeneralEncoder(ProgressToken.of(7), 1.0, v, null);
    }
  }

  @Test
  void fastBytesEqualTheGeneralEncodingForTokensAndMessages() {
    for (String text :
        List.of(
            "",
            "plain words",
            "9f86d081884c7d659a2feaa0c55ad015",
            "quote \" inside",
            "back\\slash",
            "tab\there",
            "ünïcödé",
            "emoji \uD83D\uDE00",
            "</script>",
            "\u007f")) {
      sameAsTheGeneralEncoder(ProgressToken.of(text), 1.0, 2.0, null);
      sameAsTheGeneralEncoder(ProgressToken.of("t"), 1.0, 2.0, text);
    }
    sameAsTheGeneralEncoder(ProgressToken.of(Long.MIN_VALUE), 1.0, null, "m");
    sameAsTheGeneralEncoder(ProgressToken.of(Long.MAX_VALUE), 1.0, null, null);
    sameAsTheGeneralEncoder(ProgressToken.of(0), 3.0, 3.0, "done");
  }
}
