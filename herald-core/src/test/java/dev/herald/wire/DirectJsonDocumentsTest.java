package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The codec's hand-written reader ({@link DirectJson}) over random documents, mutated documents,
 * slices and odd input: it reads exactly the trees the mapper reads, node kinds included, and
 * leaves everything else to it (its writer: {@code DirectJsonTest}).
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
    assertThat(JsonGen.kinds(light)).isEqualTo(JsonGen.kinds(slow));
    return light;
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
        assertThat(JsonGen.kinds(light)).isEqualTo(JsonGen.kinds(slow));
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
