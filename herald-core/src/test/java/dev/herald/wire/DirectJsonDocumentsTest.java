package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The codec's hand-written reader and writer ({@link DirectJson}) over random documents, mutated
 * documents and odd input: they read exactly the trees the mapper reads and write exactly the bytes
 * it writes, node kinds included, and leave everything else to it.
 */
class DirectJsonDocumentsTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** What the hand reader gives, or null; when it gives a tree, the mapper's is the same. */
  private static JsonNode sameRead(byte[] b) {
    JsonNode light = DirectJson.readObject(b, 0, b.length);
    if (light == null) {
      return null;
    }
    JsonNode slow = McpJson.mapper().readTree(b);
    assertThat(light).as("%s", new String(b, StandardCharsets.UTF_8)).isEqualTo(slow);
    assertThat(kinds(light)).isEqualTo(kinds(slow));
    return light;
  }

  private static List<String> kinds(JsonNode n) {
    List<String> out = new ArrayList<>();
    collect(n, out);
    return out;
  }

  private static void collect(JsonNode n, List<String> out) {
    out.add(n.getClass().getSimpleName());
    for (JsonNode c : n.values()) {
      collect(c, out);
    }
  }

  @Test
  void documentsReadByHandEqualTheMappersTrees() {
    Random random = new Random(3);
    int light = 0;
    for (int i = 0; i < 5_000; i++) {
      JsonNode v = random.nextBoolean() ? JsonGen.object(random, 4) : JsonGen.value(random, 4);
      byte[] b = McpJson.mapper().writeValueAsBytes(v);
      if (sameRead(b) != null) {
        light++;
      }
      // the same with whitespace between the tokens
      String spaced = v.toPrettyString();
      sameRead(spaced.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(light).as("documents read by hand").isGreaterThan(1_000);
  }

  @Test
  void mutatedDocumentsAreEitherReadAsTheMapperReadsThemOrLeftToIt() {
    Random random = new Random(17);
    for (int i = 0; i < 20_000; i++) {
      byte[] valid = McpJson.mapper().writeValueAsBytes(JsonGen.object(random, 3));
      byte[] b = Fuzz.mutate(valid, random.nextLong());
      if (Utf8.firstInvalid(b, 0, b.length) >= 0) {
        continue; // the codec refuses these before any parser sees them
      }
      JsonNode light = DirectJson.readObject(b, 0, b.length);
      if (light != null) {
        JsonNode slow = McpJson.mapper().readTree(b); // must not throw: the light reader took it
        assertThat(light).as("%s", new String(b, StandardCharsets.UTF_8)).isEqualTo(slow);
        assertThat(kinds(light)).isEqualTo(kinds(slow));
      }
    }
  }

  @Test
  void theHandshakeIsReadByHandAndUnusualInputIsLeftToTheMapper() {
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{\"roots\":{\"listChanged\":true}},"
            + "\"clientInfo\":{\"name\":\"c\\u00e9 \\\"q\\\"\",\"version\":\"1\"}}}";
    assertThat(sameRead(init.getBytes(StandardCharsets.UTF_8))).isNotNull();
    for (String odd :
        List.of(
            "",
            "  ",
            "{\"a\":1.5}",
            "{\"a\":1e3}",
            "{\"a\":01}",
            "{\"a\":1,\"a\":2}",
            "{\"a\":12345678901234567890}",
            "{} {}",
            "{\"a\":\"\u0001\"}",
            "{\"a\":\"\\x\"}",
            "{\"a\":tru}",
            "{\"a\":1x}",
            "[1,]",
            "{\"a\":1,}",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")) {
      assertThat(DirectJson.readObject(odd.getBytes(StandardCharsets.UTF_8), 0, odd.length()))
          .as(odd)
          .isNull();
    }
    byte[] sliced = "xx{\"a\":[1,-2,true,null,\"\"]}yy".getBytes(StandardCharsets.UTF_8);
    assertThat(DirectJson.readObject(sliced, 2, sliced.length - 4))
        .isEqualTo(McpJson.mapper().readTree("{\"a\":[1,-2,true,null,\"\"]}"));
  }

  /** The hand-written bytes, when it writes them, are the mapper's. */
  private static boolean sameBytes(JsonRpcMessage m) {
    byte[] light = DirectJson.write(m);
    if (light == null) {
      return false;
    }
    assertThat(new String(light, StandardCharsets.UTF_8))
        .as("%s", m)
        .isEqualTo(new String(MessageCodec.encodeWithMapper(m), StandardCharsets.UTF_8));
    return true;
  }

  @Test
  void messagesWrittenByHandEqualTheMappersBytes() {
    McpJson.mapper();
    Random random = new Random(23);
    int light = 0;
    for (int i = 0; i < 5_000; i++) {
      RequestId id =
          random.nextBoolean()
              ? RequestId.of(random.nextLong())
              : RequestId.of(JsonGen.text(random));
      ObjectNode params = random.nextInt(4) == 0 ? null : JsonGen.object(random, 4);
      JsonNode value = JsonGen.value(random, 4);
      JsonRpcMessage m =
          switch (random.nextInt(5)) {
            case 0 -> new JsonRpcMessage.Request(id, JsonGen.text(random), params);
            case 1 -> new JsonRpcMessage.Notification(JsonGen.text(random), params);
            case 2 -> new JsonRpcMessage.Result(id, value);
            case 3 ->
                new JsonRpcMessage.Error(
                    random.nextBoolean() ? id : null,
                    new JsonRpcMessage.ErrorObject(
                        random.nextInt(),
                        JsonGen.text(random),
                        random.nextBoolean() ? value : null));
            default -> new JsonRpcMessage.Result(id, JsonGen.object(random, 4));
          };
      if (sameBytes(m)) {
        light++;
      }
    }
    assertThat(light).as("messages written by hand").isGreaterThan(1_000);
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x800; c++) {
      all.append(c);
    }
    all.append("\u4e2d\uffff\u2028");
    assertThat(
            sameBytes(
                new JsonRpcMessage.Result(RequestId.of(1), F.objectNode().put(all.toString(), 1))))
        .isTrue();
  }

  @Test
  void aSurrogateOrANodeKindOtherThanTheParsersIsLeftToTheMapper() {
    RequestId id = RequestId.of(1);
    assertThat(DirectJson.write(new JsonRpcMessage.Result(id, F.stringNode("\ud83d\ude00"))))
        .isNull();
    assertThat(DirectJson.write(new JsonRpcMessage.Result(id, F.stringNode("a\ud83d")))).isNull();
    assertThat(DirectJson.write(new JsonRpcMessage.Result(id, F.numberNode(1.5)))).isNull();
    assertThat(DirectJson.write(new JsonRpcMessage.Result(id, F.pojoNode(new Object())))).isNull();
    assertThat(DirectJson.write(new JsonRpcMessage.Result(id, F.objectNode()))).isNotNull();
  }
}
