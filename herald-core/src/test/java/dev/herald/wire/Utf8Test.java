package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The UTF-8 check agrees with the JDK's strict decoder on every input. */
class Utf8Test {

  private static boolean strictJdk(byte[] b) {
    for (byte x : b) {
      if (x == 0) {
        return false; // the check refuses NUL as well
      }
    }
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  @Test
  void agreesWithTheJdksStrictDecoderOnRandomBytesBiasedTowardsMultiByteForms() {
    SplittableRandom random = new SplittableRandom(13);
    int[] interesting = {
      0x00, 0x2e, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed,
      0xef, 0xf0, 0xf4, 0xf5, 0xff
    };
    int valid = 0;
    for (int n = 0; n < 200_000; n++) {
      // short inputs, and longer ones that are mostly ASCII (read eight bytes at a time)
      byte[] b = new byte[n % 2 == 0 ? random.nextInt(1, 7) : random.nextInt(1, 40)];
      for (int i = 0; i < b.length; i++) {
        int pick = random.nextInt(n % 2 == 0 ? 2 : 12);
        b[i] =
            (byte)
                (pick == 0
                    ? interesting[random.nextInt(interesting.length)]
                    : pick == 1 ? random.nextInt(256) : random.nextInt(1, 128));
      }
      boolean expected = strictJdk(b);
      valid += expected ? 1 : 0;
      assertThat(Utf8.firstInvalid(b, 0, b.length) < 0)
          .as("%s", java.util.HexFormat.of().formatHex(b))
          .isEqualTo(expected);
    }
    assertThat(valid).as("some inputs were valid").isGreaterThan(1000);
  }

  @Test
  void checksOnlyTheGivenSlice() {
    byte[] b = {(byte) 0xff, 'a', 'b', (byte) 0xe2, (byte) 0x82, (byte) 0xac, (byte) 0xff};
    assertThat(Utf8.firstInvalid(b, 1, 5)).isEqualTo(-1);
    assertThat(Utf8.firstInvalid(b, 1, 4)).isEqualTo(3);
  }

  @Test
  void anUtf16BodyIsAParseError() {
    byte[] utf16 =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_16);
    assertThat(MessageCodec.decode(utf16))
        .isInstanceOfSatisfying(
            DecodedMessage.Invalid.class,
            bad -> assertThat(bad.error().code()).isEqualTo(ErrorCodes.PARSE_ERROR));
    byte[] utf32 =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
            .getBytes(java.nio.charset.Charset.forName("UTF-32LE"));
    assertThat(MessageCodec.decode(utf32))
        .isInstanceOfSatisfying(
            DecodedMessage.Invalid.class,
            bad -> assertThat(bad.error().code()).isEqualTo(ErrorCodes.PARSE_ERROR));
  }
}
