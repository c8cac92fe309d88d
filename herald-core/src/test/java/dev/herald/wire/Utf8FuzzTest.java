package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Fuzzes the strict UTF-8 check (RFC 3629 §3-4) against the JDK's reporting decoder: the two agree
 * on every input, at every offset, and the offset it names is where a valid prefix ends.
 */
class Utf8FuzzTest {
  @Provide
  Arbitrary<byte[]> texts() {
    Arbitrary<byte[]> valid =
        Arbitraries.strings()
            .all()
            .ofMaxLength(40)
            .map(s -> s.getBytes(StandardCharsets.UTF_8)); // unpaired surrogates become '?'
    return Arbitraries.oneOf(Fuzz.randomBytes(64), valid, Fuzz.mutated(valid));
  }

  @Property
  void agreesWithTheJdksStrictDecoder(
      @ForAll("texts") byte[] bytes, @ForAll @IntRange(max = 9) int pad) {
    byte[] buffer = new byte[pad + bytes.length + pad];
    System.arraycopy(bytes, 0, buffer, pad, bytes.length);
    int bad = Utf8.firstInvalid(buffer, pad, bytes.length);
    assertThat(bad < 0).isEqualTo(MessageCodecFuzzTest.strictUtf8(bytes));
    if (bad >= 0) {
      assertThat(bad).isBetween(pad, pad + bytes.length - 1);
      assertThat(Utf8.firstInvalid(buffer, pad, bad - pad)).isEqualTo(-1);
    }
  }
}
