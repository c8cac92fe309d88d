package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Messages read straight from bytes and written straight to bytes are exactly what the mapper
 * reads and writes (the same decoded message, node kinds included; the same bytes), and
 * everything the direct path does not know goes to the mapper.
 */
class DirectJsonTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private static JsonRpcMessage randomMessage(Random random) {
    RequestId id =
        random.nextBoolean()
            ? new RequestId.Number(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(100))
            : new RequestId.Text(JsonGen.text(random));
    ObjectNode params = random.nextInt(5) == 0 ? null : JsonGen.object(random, 4);
    return switch (random.nextInt(5)) {
      case 0 -> new JsonRpcMessage.Request(id, JsonGen.text(random), params);
      case 1 -> new JsonRpcMessage.Notification(JsonGen.text(random), params);
      case 2 -> new JsonRpcMessage.Result(id, JsonGen.value(random, 4));
      case 3 ->
          new JsonRpcMessage.Error(
              random.nextBoolean() ? id : null,
              new JsonRpcMessage.ErrorObject(
                  random.nextInt(),
                  JsonGen.text(random),
                  random.nextBoolean() ? null : JsonGen.value(random, 3)));
      default -> toolsCall(random, id);
    };
  }

  /** A {@code tools/call} as clients send it, sometimes with a progress token. */
  private static JsonRpcMessage toolsCall(Random random, RequestId id) {
    ObjectNode params = F.objectNode();
    params.put("name", JsonGen.text(random));
    params.set("arguments", JsonGen.object(random, 3));
    if (random.nextBoolean()) {
      ObjectNode meta = params.putObject("_meta");
      if (random.nextBoolean()) {
        meta.put("progressToken", JsonGen.text(random));
      } else {
        meta.put("progressToken", random.nextInt());
      }
    }
    return new JsonRpcMessage.Request(id, "tools/call", params);
  }

  /** Every node's class, depth first: equal trees may still differ in node kinds. */
  private static List<String> kinds(DecodedMessage m) {
    List<String> out = new ArrayList<>();
    if (m instanceof DecodedMessage.Valid v) {
      switch (v.message()) {
        case JsonRpcMessage.Request r -> collect(r.params(), out);
        case JsonRpcMessage.Notification n -> collect(n.params(), out);
        case JsonRpcMessage.Result r -> collect(r.result(), out);
        case JsonRpcMessage.Error e -> collect(e.error().data(), out);
      }
    }
    return out;
  }

  private static void collect(JsonNode n, List<String> out) {
    if (n == null) {
      out.add("-");
      return;
    }
    out.add(n.getClass().getSimpleName());
    for (JsonNode c : n.values()) {
      collect(c, out);
    }
  }

  /** Decodes {@code bytes} both ways; true if the direct path read them. */
  private static boolean sameDecoding(byte[] bytes) {
    DecodedMessage slow = MessageCodec.decodeWithMapper(bytes, 0, bytes.length);
    DecodedMessage fast = MessageCodec.decode(bytes);
    String shown = new String(bytes, StandardCharsets.UTF_8);
    assertThat(fast).as(shown).isEqualTo(slow);
    assertThat(kinds(fast)).as(shown).isEqualTo(kinds(slow));
    return Utf8.firstInvalid(bytes, 0, bytes.length) < 0
        && DirectJson.readObject(bytes, 0, bytes.length) != null;
  }

  /** {@code bytes} with one random change: cut, a byte replaced, or a byte inserted. */
  private static byte[] mutate(Random random, byte[] bytes) {
    byte[] pool = "{}[]\":,0-1.eE \\u/ntf\u00e9x".getBytes(StandardCharsets.UTF_8);
    int at = random.nextInt(bytes.length + 1);
    return switch (random.nextInt(3)) {
      case 0 -> java.util.Arrays.copyOf(bytes, at);
      case 1 -> {
        byte[] out = bytes.clone();
        if (at < out.length) {
          out[at] = pool[random.nextInt(pool.length)];
        }
        yield out;
      }
      default -> {
        byte[] out = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, out, 0, at);
        out[at] = pool[random.nextInt(pool.length)];
        System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
        yield out;
      }
    };
  }

  @Test
  void messagesReadStraightFromBytesEqualTheMappersOverRandomInput() {
    Random random = new Random(15);
    var pretty = McpJson.mapper().writerWithDefaultPrettyPrinter();
    var escaping = McpJson.mapper().writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);
    int direct = 0;
    int total = 0;
    for (int i = 0; i < 6_000; i++) {
      JsonRpcMessage m = randomMessage(random);
      byte[] plain = MessageCodec.encodeWithMapper(m);
      JsonNode tree = McpJson.mapper().readTree(plain);
      List<byte[]> inputs = new ArrayList<>();
      inputs.add(plain);
      inputs.add(pretty.writeValueAsBytes(tree));
      inputs.add(escaping.writeValueAsBytes(tree));
      inputs.add(
          new String(plain, StandardCharsets.UTF_8)
              .replace("/", "\\/")
              .replace(":", " : ")
              .getBytes(StandardCharsets.UTF_8));
      inputs.add(mutate(random, plain));
      inputs.add(mutate(random, mutate(random, plain)));
      for (byte[] input : inputs) {
        total++;
        if (sameDecoding(input)) {
          direct++;
        }
      }
    }
    assertThat(direct).as("read straight from bytes, of %d", total).isGreaterThan(total / 5);
  }

  @Test
  void oddInputGivesTheMappersAnswer() {
    String[] odd = {
      "",
      " ",
      "[]",
      "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"}]",
      "\ufeff{\"jsonrpc\":\"2.0\",\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"method\":\"b\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":-,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1e3,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":99999999999999999999999,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":2147483648,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":-2147483648,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":{\"x\":[1,]}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"} x",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}{}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\\u00e9\\ud83d\\ude00\\ud800\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\\x\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\\u12\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\tb\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":[1]}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":{\"t\":tru}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":{\"t\":nulll}}",
      "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"a\"}",
      "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"a\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,\"message\":\"m\"}}",
      "\t{ \"jsonrpc\" : \"2.0\" , \"id\" : 7 , \"method\" : \"ping\" }\r\n",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":"
          + "[".repeat(70)
          + "]".repeat(70)
          + "}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":{\"d\":"
          + "[".repeat(130)
          + "]".repeat(130)
          + "}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":{\""
          + "k".repeat(60_000)
          + "\":1}}",
    };
    for (String s : odd) {
      sameDecoding(s.getBytes(StandardCharsets.UTF_8));
    }
    sameDecoding(new byte[] {'{', '"', (byte) 0xc0, (byte) 0x80, '"', ':', '1', '}'});
  }

  @Test
  void aToolsCallIsReadStraightFromBytes() {
    byte[] body =
        ("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"text\":\"h\\u00e9llo \\\"w\\\"\",\"n\":3,\"ok\":true},"
                + "\"_meta\":{\"progressToken\":\"p-1\"}}}")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(DirectJson.readObject(body, 0, body.length)).isNotNull();
    assertThat(sameDecoding(body)).isTrue();
    var valid = (DecodedMessage.Valid) MessageCodec.decode(body);
    var request = (JsonRpcMessage.Request) valid.message();
    assertThat(request.params().path("arguments").path("text").stringValue())
        .isEqualTo("h\u00e9llo \"w\"");
  }

  @Test
  void messagesWrittenStraightToBytesEqualTheMappersOverRandomMessages() {
    Random random = new Random(16);
    int direct = 0;
    for (int i = 0; i < 20_000; i++) {
      JsonRpcMessage m = randomMessage(random);
      byte[] slow = MessageCodec.encodeWithMapper(m);
      byte[] fast = MessageCodec.encode(m);
      assertThat(new String(fast, StandardCharsets.UTF_8))
          .isEqualTo(new String(slow, StandardCharsets.UTF_8));
      assertThat(fast).isEqualTo(slow);
      if (DirectJson.write(m) != null) {
        direct++;
      }
    }
    assertThat(direct).as("written straight to bytes").isGreaterThan(2_000);
  }

  @Test
  void everyCharacterIsWrittenAsTheMapperWritesIt() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x3000; c++) {
      all.append(c);
    }
    all.append("\u2028\u2029\ufeff\uffff\ud83d\ude00");
    for (int from = 0; from < all.length(); from += 97) {
      String s = all.substring(from, Math.min(all.length(), from + 97));
      ObjectNode result = F.objectNode();
      result.putArray("content").addObject().put("type", "text").put("text", s);
      result.put(s, s);
      JsonRpcMessage m = new JsonRpcMessage.Result(new RequestId.Text(s), result);
      assertThat(MessageCodec.encode(m)).isEqualTo(MessageCodec.encodeWithMapper(m));
    }
  }

  @Test
  void aTextResultIsWrittenStraightToBytes() {
    ObjectNode result = F.objectNode();
    result.putArray("content").addObject().put("type", "text").put("text", "h\u00e9llo \"w\"/\n");
    result.put("isError", false);
    result.putNull("x");
    result.put("n", 1L << 40);
    JsonRpcMessage m = new JsonRpcMessage.Result(new RequestId.Number(3), result);
    assertThat(DirectJson.write(m)).isNotNull().isEqualTo(MessageCodec.encodeWithMapper(m));
  }
}
