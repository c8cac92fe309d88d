package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Frames that are not strict UTF-8 are refused with a parse error over stdio, before any handler
 * could read a leniently decoded text (an overlong {@code C0 AE} is not a {@code .}).
 */
class StrictUtf8OverStdioTest {

  private static byte[] readWithUriBytes(String id, byte[] middle) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("{\"jsonrpc\":\"2.0\",\"id\":\""
                + id
                + "\",\"method\":\"resources/read\",\"params\":{\"uri\":\"test://template/")
            .getBytes(StandardCharsets.UTF_8));
    out.writeBytes(middle);
    out.writeBytes("/data\"}}".getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @Test
  void anOverlongDotInAResourceUriIsAParseErrorAndNeverReachesTheHandler() throws Exception {
    try (RawStdio raw = RawStdio.initialized(ResourcesTest.server())) {
      // C0 AE C0 AE 2F C0 AE is "../." written with overlong two-byte forms
      raw.sendBytes(readWithUriBytes("r1", HexFormat.of().parseHex("c0aec0ae2f657463")));
      JsonNode answer = raw.next();
      assertThat(answer.get("error").get("code").intValue()).isEqualTo(ErrorCodes.PARSE_ERROR);
      assertThat(answer.get("result")).isNull();
      assertThat(answer.get("id").isNull()).isTrue();
      // the session is still usable
      assertThat(raw.call("p", "ping", "{}").get("result")).isNotNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "c0ae", // overlong '.'
        "c1bf", // overlong two-byte
        "e080ae", // overlong three-byte '.'
        "f08080ae", // overlong four-byte '.'
        "eda080", // a UTF-16 surrogate encoded in UTF-8
        "edbfbf", // a low surrogate
        "f4908080", // above U+10FFFF
        "e282", // a truncated sequence (the next byte is '/')
        "ff", // a byte that never appears in UTF-8
        "80", // a lone continuation byte
        "00" // a NUL byte, as UTF-16 and UTF-32 text has
      })
  void malformedUtf8IsRefusedWithAParseError(String hex) throws Exception {
    try (RawStdio raw = RawStdio.initialized(ResourcesTest.server())) {
      raw.sendBytes(readWithUriBytes("bad", HexFormat.of().parseHex(hex)));
      JsonNode answer = raw.next();
      assertThat(answer.get("error").get("code").intValue())
          .as(hex)
          .isEqualTo(ErrorCodes.PARSE_ERROR);
      assertThat(answer.get("error").get("message").stringValue()).contains("UTF-8");
    }
  }

  @Test
  void aFrameCutInsideAMultiByteCharacterIsAParseError() throws Exception {
    try (RawStdio raw = RawStdio.initialized(ResourcesTest.server())) {
      byte[] whole =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"é"
              .getBytes(StandardCharsets.UTF_8);
      byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 1);
      raw.sendBytes(cut);
      assertThat(raw.next().get("error").get("code").intValue()).isEqualTo(ErrorCodes.PARSE_ERROR);
    }
  }

  @Test
  void wellFormedMultiByteTextStillReachesTheHandlerUnchanged() throws Exception {
    try (RawStdio raw = RawStdio.initialized(ResourcesTest.server())) {
      String name = "é中😀";
      raw.sendBytes(readWithUriBytes("ok", name.getBytes(StandardCharsets.UTF_8)));
      JsonNode answer = raw.next();
      assertThat(answer.get("result").get("contents").get(0).get("text").stringValue())
          .isEqualTo("{\"id\":\"" + name + "\"}");
    }
  }
}
