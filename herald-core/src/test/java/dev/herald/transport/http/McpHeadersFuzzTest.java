package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.Fuzz;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes the {@code =?base64?...?=} header value codec (MCP 2026-07-28 basic/transports/
 * streamable-http §Custom Headers): every value survives encoding, an encoded value is plain
 * header-safe ASCII, and decoding never throws and never accepts bytes that are not UTF-8.
 */
class McpHeadersFuzzTest {
  @Provide
  Arbitrary<String> values() {
    return Arbitraries.strings()
        .all()
        .ofMaxLength(40)
        .filter(McpHeadersFuzzTest::wellFormedUtf16)
        .edgeCases(e -> e.add("=?base64?QQ==?=", " a", "a ", "", "=?base64??=", "=?BASE64?QQ==?="));
  }

  @Provide
  Arbitrary<String> headerValues() {
    Arbitrary<String> encoded = values().map(McpHeaders::encode);
    Arbitrary<String> sentinels =
        Fuzz.randomBytes(24).map(b -> "=?base64?" + Base64.getEncoder().encodeToString(b) + "?=");
    return Arbitraries.oneOf(
        encoded, Fuzz.mutatedText(encoded), sentinels, Fuzz.mutatedText(sentinels));
  }

  @Property
  void everyValueSurvivesEncoding(@ForAll("values") String value) {
    assertThat(McpHeaders.decode(McpHeaders.encode(value))).contains(value);
  }

  @Property
  void anEncodedValueIsPlainHeaderSafeAscii(@ForAll("values") String value) {
    String encoded = McpHeaders.encode(value);
    assertThat(encoded.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
    assertThat(encoded).doesNotStartWith(" ").doesNotEndWith(" ");
  }

  @Property
  void decodingNeverThrowsAndRefusesWhatIsNotUtf8(@ForAll("headerValues") String raw) {
    Optional<String> decoded = Fuzz.bounded(() -> McpHeaders.decode(raw));
    if (raw.toLowerCase(Locale.ROOT).startsWith("=?base64?")
        && raw.endsWith("?=")
        && raw.length() >= 11) {
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(raw.substring(9, raw.length() - 2));
      } catch (IllegalArgumentException e) {
        assertThat(decoded).isEmpty();
        return;
      }
      assertThat(decoded.isPresent()).isEqualTo(strictUtf8(bytes));
    } else {
      assertThat(decoded).contains(raw);
    }
  }

  /**
   * Found by {@link #decodingNeverThrowsAndRefusesWhatIsNotUtf8}: the Base64 of bytes that are not
   * UTF-8 (here an overlong {@code /}) was decoded leniently to replacement characters, so a
   * gateway and the server could read different values.
   */
  @Example
  void theBase64OfMalformedUtf8IsRefused() {
    String overlongSlash =
        Base64.getEncoder().encodeToString(new byte[] {(byte) 0xC0, (byte) 0xAF});
    assertThat(McpHeaders.decode("=?base64?" + overlongSlash + "?=")).isEmpty();
    assertThat(McpHeaders.decode("=?base64?/w==?=")).isEmpty();
  }

  /**
   * Found by {@code StandardHeadersFuzzTest.whatTheClientEncodesReadsBack}: the client sent a value
   * that looks like the encoded form with another case ({@code =?BASE64?...?=}) as it was, and the
   * server, which reads the prefix in any case, decoded it to another value and refused the call.
   */
  @Example
  void aValueLookingLikeTheEncodedFormInAnyCaseIsEncoded() {
    assertThat(McpHeaders.encode("=?BASE64?QQ==?="))
        .startsWith("=?base64?")
        .isNotEqualTo("=?BASE64?QQ==?=");
    assertThat(McpHeaders.decode(McpHeaders.encode("=?BASE64?QQ==?="))).contains("=?BASE64?QQ==?=");
    assertThat(McpHeaders.decode("=?Base64?QQ==?=")).contains("A");
  }

  static boolean wellFormedUtf16(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  static boolean strictUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
