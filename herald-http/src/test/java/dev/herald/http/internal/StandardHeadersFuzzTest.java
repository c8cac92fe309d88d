package dev.herald.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.herald.transport.http.McpHeaders;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import dev.herald.wire.Tool;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes the server's reading of the 2026-07-28 request metadata headers ({@code Mcp-Method},
 * {@code Mcp-Name}, {@code Mcp-Param-*}, with the {@code =?base64?...?=} form; MCP 2026-07-28
 * basic/transports/streamable-http): what the client's encoder writes always reads back and
 * agrees with the body, and any mutated or random value either reads or is refused with -32020
 * naming the header, never another failure.
 */
class StandardHeadersFuzzTest {
  private static final Tool TOOL =
      Tool.builder("t")
          .inputSchema(
              (ObjectNode)
                  McpJson.mapper()
                      .readTree(
                          "{\"type\":\"object\",\"properties\":{"
                              + "\"s\":{\"type\":\"string\",\"x-mcp-header\":\"S\"},"
                              + "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"},"
                              + "\"b\":{\"type\":\"boolean\",\"x-mcp-header\":\"B\"}}}"))
          .build();

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.strings()
        .all()
        .ofMaxLength(30)
        .filter(Mutations::wellFormedUtf16)
        .edgeCases(e -> e.add("=?base64?QQ==?=", " a ", "", "=?BASE64?QQ==?="));
  }

  @Provide
  Arbitrary<String> raws() {
    Arbitrary<String> encoded = values().map(McpHeaders::encode);
    Arbitrary<String> sentinels =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMaxSize(20)
            .map(b -> "=?base64?" + Base64.getEncoder().encodeToString(b) + "?=");
    return Arbitraries.oneOf(
        encoded,
        mutated(encoded),
        sentinels,
        mutated(sentinels),
        Arbitraries.strings().ofMaxLength(30));
  }

  @Property
  void whatTheClientEncodesReadsBack(@ForAll("values") String value) {
    assertThat(StandardHeaders.decode("Mcp-Name", McpHeaders.encode(value))).isEqualTo(value);
  }

  /** Found by {@link #whatTheClientEncodesReadsBack} (seed -383478622032941063); fixed in McpHeaders. */
  @Example
  void aValueLookingLikeTheEncodedFormWithAnotherCaseReadsBack() {
    assertThat(StandardHeaders.decode("Mcp-Name", McpHeaders.encode("=?BASE64?QQ==?=")))
        .isEqualTo("=?BASE64?QQ==?=");
  }

  @Property
  void anyValueReadsOrIsRefusedNamingTheHeader(@ForAll("raws") String raw) {
    String decoded;
    try {
      decoded = StandardHeaders.decode("Mcp-Param-X", raw);
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(ErrorCodes.HEADER_MISMATCH);
      assertThat(e.getMessage()).contains("Mcp-Param-X");
      return;
    } catch (RuntimeException e) {
      fail("decoding " + raw + " threw " + e, e);
      return;
    }
    boolean sentinel =
        raw.length() >= 11
            && raw.toLowerCase(Locale.ROOT).startsWith("=?base64?")
            && raw.endsWith("?=");
    if (!sentinel) {
      assertThat(decoded).isEqualTo(raw);
      assertThat(raw.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
    } else {
      // strictly decoded: the bytes it stands for are exactly the value's UTF-8
      byte[] bytes = Base64.getDecoder().decode(raw.substring(9, raw.length() - 2));
      assertThat(decoded.getBytes(StandardCharsets.UTF_8)).isEqualTo(bytes);
    }
  }

  record Call(JsonRpcMessage message, Map<String, String> headers, boolean mutated) {}

  @Provide
  Arbitrary<Call> calls() {
    return Combinators.combine(
            values(),
            Arbitraries.longs(),
            Arbitraries.longs(),
            Arbitraries.integers().between(0, 3))
        .as((s, n, seed, mutate) -> {
          Random r = new Random(seed);
          ObjectNode args = McpJson.object();
          args.put("s", s).put("n", n).put("b", r.nextBoolean());
          ObjectNode params = McpJson.object();
          params.put("name", "t").set("arguments", args);
          Map<String, String> headers = new HashMap<>();
          headers.put("mcp-method", "tools/call");
          headers.put("mcp-name", "t");
          headers.put("mcp-param-s", McpHeaders.encode(s));
          headers.put("mcp-param-n", Long.toString(n));
          headers.put("mcp-param-b", args.get("b").asString());
          boolean mutated = mutate != 0 && r.nextBoolean();
          if (mutated) {
            String key = headers.keySet().stream().sorted().toList().get(r.nextInt(headers.size()));
            headers.put(key, Mutations.mutateText(headers.get(key), r.nextLong()));
          }
          return new Call(
              new JsonRpcMessage.Request(RequestId.of(1), "tools/call", params), headers, mutated);
        });
  }

  @Property
  void headersTheClientWritesAgreeWithTheBodyAndOthersFailWithMinus32020(
      @ForAll("calls") Call call) {
    try {
      StandardHeaders.check(
          name -> call.headers().get(name.toLowerCase(Locale.ROOT)),
          call.message(),
          name -> name.equals("t") ? TOOL : null);
    } catch (McpException e) {
      assertThat(call.mutated()).as("refused %s: %s", call.headers(), e.getMessage()).isTrue();
      assertThat(e.code()).isEqualTo(ErrorCodes.HEADER_MISMATCH);
    }
  }

  private static Arbitrary<String> mutated(Arbitrary<String> valid) {
    return Combinators.combine(valid, Arbitraries.longs()).as(Mutations::mutateText);
  }
}
