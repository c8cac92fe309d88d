package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes the JSON-RPC envelope decoder (MCP basic, "JSON-RPC messages"; JSON-RPC 2.0 §4-5) with
 * random bytes and with mutated valid messages: it never throws, answers only with -32700, -32600
 * or -32602, refuses every frame that is not strict UTF-8, and what it accepts encodes back to a
 * frame that decodes to the same message.
 */
class MessageCodecFuzzTest {
  private static final Set<Integer> DECODE_ERRORS =
      Set.of(ErrorCodes.PARSE_ERROR, ErrorCodes.INVALID_REQUEST, ErrorCodes.INVALID_PARAMS);

  @Provide
  Arbitrary<byte[]> frames() {
    return Arbitraries.oneOf(Fuzz.randomBytes(256), validMessages(), Fuzz.mutated(validMessages()));
  }

  /** Valid requests, notifications, results, errors and batches of them. */
  static Arbitrary<byte[]> validMessages() {
    Arbitrary<JsonRpcMessage> one =
        Arbitraries.longs()
            .map(seed -> {
              Random r = new Random(seed);
              RequestId id =
                  r.nextBoolean() ? RequestId.of(r.nextLong()) : RequestId.of(JsonGen.text(r));
              ObjectNode params = r.nextInt(4) == 0 ? null : JsonGen.object(r, 3);
              String method =
                  List.of("initialize", "tools/call", "ping", "notifications/progress", "x")
                      .get(r.nextInt(5));
              return switch (r.nextInt(4)) {
                case 0 -> new JsonRpcMessage.Request(id, method, params);
                case 1 -> new JsonRpcMessage.Notification(method, params);
                case 2 -> new JsonRpcMessage.Result(id, JsonGen.value(r, 3));
                default ->
                    new JsonRpcMessage.Error(
                        r.nextInt(5) == 0 ? null : id,
                        new JsonRpcMessage.ErrorObject(
                            r.nextInt(),
                            JsonGen.text(r),
                            r.nextBoolean() ? null : JsonGen.value(r, 2)));
              };
            });
    Arbitrary<byte[]> single = one.map(MessageCodec::encode);
    Arbitrary<byte[]> batch =
        one.list()
            .ofMinSize(1)
            .ofMaxSize(4)
            .map(list -> {
              StringBuilder s = new StringBuilder("[");
              for (JsonRpcMessage m : list) {
                s.append(s.length() > 1 ? "," : "").append(MessageCodec.encodeToString(m));
              }
              return s.append(']').toString().getBytes(StandardCharsets.UTF_8);
            });
    return Arbitraries.oneOf(single, single, batch);
  }

  @Property
  void decodingNeverThrowsAndAnswersOnlyWithDecodeErrors(@ForAll("frames") byte[] frame) {
    DecodedMessage decoded = Fuzz.bounded(() -> MessageCodec.decode(frame));
    assertWellFormed(decoded);
  }

  @Property
  void aFrameThatIsNotStrictUtf8IsAParseError(@ForAll("frames") byte[] frame) {
    DecodedMessage decoded = Fuzz.bounded(() -> MessageCodec.decode(frame));
    if (!strictUtf8(frame)) {
      assertThat(decoded).isInstanceOf(DecodedMessage.Invalid.class);
      assertThat(((DecodedMessage.Invalid) decoded).error().code())
          .isEqualTo(ErrorCodes.PARSE_ERROR);
    }
  }

  /**
   * What is accepted re-encodes to a fixed point: encoding it, decoding that and encoding again
   * gives the same bytes, and the same message (the kind, id, method). Numbers may change their
   * JSON spelling once ({@code 6.8E15} is written {@code 6800000000000000}), never their value.
   */
  @Property
  void whatIsAcceptedEncodesToAStableFrame(@ForAll("frames") byte[] frame) {
    DecodedMessage decoded = Fuzz.bounded(() -> MessageCodec.decode(frame));
    List<DecodedMessage> items =
        decoded instanceof DecodedMessage.Batch b ? b.items() : List.of(decoded);
    for (DecodedMessage item : items) {
      if (item instanceof DecodedMessage.Valid(JsonRpcMessage message)) {
        byte[] encoded = MessageCodec.encode(message);
        DecodedMessage again = MessageCodec.decode(encoded);
        assertThat(again).isInstanceOf(DecodedMessage.Valid.class);
        JsonRpcMessage m2 = ((DecodedMessage.Valid) again).message();
        assertThat(m2.getClass()).isEqualTo(message.getClass());
        assertThat(MessageCodec.encode(m2)).isEqualTo(encoded);
        assertThat(MessageCodec.decode(MessageCodec.encode(m2))).isEqualTo(again);
      }
    }
  }

  @Property
  void aSliceDecodesLikeTheSameBytesOnTheirOwn(
      @ForAll("frames") byte[] frame,
      @ForAll("padding") byte[] before,
      @ForAll("padding") byte[] after) {
    byte[] buffer =
        ByteBuffer.allocate(before.length + frame.length + after.length)
            .put(before)
            .put(frame)
            .put(after)
            .array();
    assertThat(MessageCodec.decode(buffer, before.length, frame.length))
        .isEqualTo(MessageCodec.decode(frame));
  }

  @Provide
  Arbitrary<byte[]> padding() {
    return Fuzz.randomBytes(12);
  }

  @Property
  void deepNestingAndHugeNumbersAreAnsweredNotCrashed(
      @ForAll("depths") int depth, @ForAll("numbers") String number) {
    String frame =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"a\":"
            + "[".repeat(depth)
            + number
            + "]".repeat(depth)
            + "}}";
    DecodedMessage decoded = Fuzz.bounded(() -> MessageCodec.decode(frame));
    assertWellFormed(decoded);
  }

  /**
   * Found by {@link #deepNestingAndHugeNumbersAreAnsweredNotCrashed} (seed 7646906608076972907):
   * Jackson threw NumberFormatException out of the decoder for an exponent beyond int range, which
   * ended a stdio connection's reader.
   */
  @Example
  void anExponentBeyondIntRangeIsAParseError() {
    for (String number :
        List.of("0e+2147483648", "9E2147483648", "1e-2147483649", "-5.5e99999999999")) {
      DecodedMessage decoded =
          MessageCodec.decode(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":"
                  + number
                  + "}}");
      assertThat(decoded).isInstanceOf(DecodedMessage.Invalid.class);
      assertThat(((DecodedMessage.Invalid) decoded).error().code())
          .isEqualTo(ErrorCodes.PARSE_ERROR);
    }
  }

  @Provide
  Arbitrary<Integer> depths() {
    return Arbitraries.integers()
        .between(0, 100_000)
        .edgeCases(e -> e.includeOnly(0, 126, 127, 128, 100_000));
  }

  @Provide
  Arbitrary<String> numbers() {
    return Combinators.combine(
            Arbitraries.of("", "-"),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(2000),
            Arbitraries.of("", "e999999999", "E-999999999", ".5", "e+2147483648"))
        .as((s, d, e) -> s + d + e);
  }

  static void assertWellFormed(DecodedMessage decoded) {
    switch (decoded) {
      case DecodedMessage.Valid v -> assertThat(v.message()).isNotNull();
      case DecodedMessage.Invalid i -> {
        assertThat(i.error().code()).isIn(DECODE_ERRORS);
        assertThat(i.error().message()).doesNotContain("java.", "dev.herald", "tools.jackson");
      }
      case DecodedMessage.Batch b -> {
        assertThat(b.items()).isNotEmpty();
        b.items().forEach(MessageCodecFuzzTest::assertWellFormed);
      }
    }
  }

  /** The JDK's strict reading: well-formed UTF-8 (RFC 3629) with no NUL byte. */
  static boolean strictUtf8(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return false;
      }
    }
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
