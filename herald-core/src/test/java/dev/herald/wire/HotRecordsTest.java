package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hand-written conversions of the call hot path give exactly what the mapper gives (the same
 * record, the same tree, node kinds included), and leave everything else to the mapper.
 */
class HotRecordsTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private static CallToolParams mapperParams(ObjectNode p) {
    return McpJson.mapper().treeToValue(p, CallToolParams.class);
  }

  private static void sameParams(ObjectNode p) {
    CallToolParams fast = HotRecords.callToolParams(p);
    if (fast == null) {
      return; // the mapper's path
    }
    CallToolParams slow = mapperParams(p);
    assertThat(fast).as("%s", p).isEqualTo(slow);
    assertThat(JsonGen.kinds(fast.arguments())).isEqualTo(JsonGen.kinds(slow.arguments()));
    assertThat(JsonGen.kinds(fast.meta())).isEqualTo(JsonGen.kinds(slow.meta()));
    assertThat(JsonGen.kinds(fast.task())).isEqualTo(JsonGen.kinds(slow.task()));
    assertThat(McpJson.fromTree(p, CallToolParams.class)).isEqualTo(slow);
  }

  /** Every node's class, depth first: equal trees may still differ in node kinds. */
  @Test
  void paramsReadByHandEqualTheMappersForParsedAndBuiltTrees() {
    Random random = new Random(7);
    int fast = 0;
    for (int i = 0; i < 5_000; i++) {
      ObjectNode p = JsonGen.object(random, 4);
      if (random.nextBoolean()) {
        p.put("name", JsonGen.text(random));
      }
      if (random.nextInt(3) == 0) {
        p.set("arguments", JsonGen.object(random, 3));
      }
      sameParams(p);
      ObjectNode parsed = (ObjectNode) McpJson.mapper().readTree(p.toString());
      sameParams(parsed);
      if (HotRecords.callToolParams(parsed) != null) {
        fast++;
      }
    }
    assertThat(fast).as("calls read by hand").isGreaterThan(500);
  }

  @Test
  void theCommonCallIsReadByHandAndItsArgumentsAreACopy() {
    ObjectNode p =
        (ObjectNode)
            McpJson.mapper()
                .readTree(
                    "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\",\"n\":1.50,\"big\":1e400},"
                        + "\"_meta\":{\"progressToken\":7},\"task\":{\"ttl\":5},\"requestState\":\"s\","
                        + "\"x-unknown\":[1]}");
    CallToolParams fast = HotRecords.callToolParams(p);
    assertThat(fast).isEqualTo(mapperParams(p));
    assertThat(fast.arguments()).isNotSameAs(p.get("arguments"));
    assertThat(fast.arguments().get("n").decimalValue()).isEqualTo(new BigDecimal("1.50"));
    fast.arguments().put("text", "changed");
    assertThat(p.get("arguments").get("text").stringValue()).isEqualTo("hi");
  }

  @Test
  void unusualParamsAreLeftToTheMapperWhichWordsTheRefusal() {
    ObjectNode noName = F.objectNode();
    ObjectNode nullName = F.objectNode().putNull("name");
    ObjectNode numberName = F.objectNode().put("name", 5);
    ObjectNode arrayArgs = F.objectNode().put("name", "t");
    arrayArgs.putArray("arguments");
    ObjectNode doubleArgs = F.objectNode().put("name", "t");
    doubleArgs.putObject("arguments").put("d", 0.1); // the mapper reads it as a decimal
    ObjectNode responses = F.objectNode().put("name", "t");
    responses.putObject("inputResponses");
    for (ObjectNode p : List.of(noName, nullName, numberName, arrayArgs, doubleArgs, responses)) {
      assertThat(HotRecords.callToolParams(p)).as("%s", p).isNull();
    }
    assertThatThrownBy(() -> McpJson.fromTree(noName, CallToolParams.class))
        .isInstanceOf(McpException.class)
        .hasMessageContaining("name is required");
    assertThatThrownBy(() -> McpJson.fromTree(numberName, CallToolParams.class))
        .isInstanceOf(McpException.class)
        .hasMessageContaining("name");
    assertThat(
            McpJson.fromTree(doubleArgs, CallToolParams.class).arguments().get("d").isBigDecimal())
        .isTrue();
  }

  @Test
  void clientInfoReadByHandEqualsTheMappers() {
    Random random = new Random(5);
    int fast = 0;
    String[] keys = {"name", "version", "title", "description", "websiteUrl", "icons", "other"};
    for (int i = 0; i < 3_000; i++) {
      ObjectNode p = F.objectNode();
      for (String key : keys) {
        switch (random.nextInt(4)) {
          case 0 -> p.put(key, JsonGen.text(random));
          case 1 -> p.set(key, JsonGen.value(random, 2));
          case 2 -> p.putNull(key);
          default -> {}
        }
      }
      Implementation hand = HotRecords.implementation(p);
      if (hand != null) {
        fast++;
        assertThat(hand)
            .as("%s", p)
            .isEqualTo(McpJson.mapper().treeToValue(p, Implementation.class));
      }
    }
    assertThat(fast).isGreaterThan(20);
    ObjectNode usual = F.objectNode().put("name", "client").put("version", "1.0");
    assertThat(HotRecords.implementation(usual)).isEqualTo(Implementation.of("client", "1.0"));
    assertThat(HotRecords.implementation(F.objectNode().put("name", "x"))).isNull();
  }

  @Test
  void clientCapabilitiesReadByHandEqualTheMappers() {
    Random random = new Random(6);
    int fast = 0;
    String[] keys = {
      "experimental", "roots", "sampling", "elicitation", "tasks", "extensions", "other"
    };
    for (int i = 0; i < 3_000; i++) {
      ObjectNode p = F.objectNode();
      for (String key : keys) {
        switch (random.nextInt(6)) {
          case 0 -> p.set(key, JsonGen.object(random, 3));
          case 1 -> p.set(key, JsonGen.value(random, 2));
          case 2 -> p.putNull(key);
          case 3 -> {
            ObjectNode r = p.putObject(key);
            switch (random.nextInt(4)) {
              case 0 -> r.put("listChanged", random.nextBoolean());
              case 1 -> r.set("listChanged", JsonGen.value(random, 1));
              case 2 -> r.putNull("listChanged");
              default -> {}
            }
          }
          default -> {}
        }
      }
      ObjectNode parsed = (ObjectNode) McpJson.mapper().readTree(p.toString());
      for (ObjectNode tree : List.of(p, parsed)) {
        ClientCapabilities hand = HotRecords.clientCapabilities(tree);
        if (hand != null) {
          fast++;
          ClientCapabilities slow = McpJson.mapper().treeToValue(tree, ClientCapabilities.class);
          assertThat(hand).as("%s", tree).isEqualTo(slow);
          assertThat(JsonGen.kinds(hand.sampling())).isEqualTo(JsonGen.kinds(slow.sampling()));
          assertThat(JsonGen.kinds(hand.extensions())).isEqualTo(JsonGen.kinds(slow.extensions()));
        }
      }
    }
    assertThat(fast).isGreaterThan(100);
    ObjectNode usual = F.objectNode();
    usual.putObject("roots").put("listChanged", true);
    usual.putObject("sampling");
    ClientCapabilities caps = HotRecords.clientCapabilities(usual);
    assertThat(caps).isNotNull();
    assertThat(caps.supportsRootsListChanged()).isTrue();
    assertThat(caps.sampling()).isNotSameAs(usual.get("sampling"));
  }

  private static void sameResult(CallToolResult r) {
    ObjectNode fast = HotRecords.callToolResult(r);
    JsonNode slow = McpJson.mapper().valueToTree(r);
    if (fast == null) {
      return;
    }
    assertThat(fast).as("%s", r).isEqualTo(slow);
    assertThat(JsonGen.kinds(fast)).isEqualTo(JsonGen.kinds(slow));
    assertThat(fast.toString()).isEqualTo(slow.toString());
  }

  @Test
  void resultsWrittenByHandEqualTheMappersTree() {
    Random random = new Random(11);
    int fast = 0;
    for (int i = 0; i < 5_000; i++) {
      List<ContentBlock> blocks = new ArrayList<>();
      int n = random.nextInt(4);
      for (int b = 0; b < n; b++) {
        blocks.add(
            new ContentBlock.Text(
                JsonGen.text(random),
                null,
                random.nextInt(4) == 0 ? JsonGen.object(random, 2) : null));
      }
      JsonNode structured =
          switch (random.nextInt(4)) {
            case 0 -> JsonGen.object(random, 3);
            case 1 -> JsonGen.value(random, 3);
            default -> null;
          };
      Boolean isError = random.nextInt(3) == 0 ? null : random.nextBoolean();
      ObjectNode meta = random.nextInt(4) == 0 ? JsonGen.object(random, 2) : null;
      CallToolResult r = new CallToolResult(blocks, structured, isError, meta);
      sameResult(r);
      if (HotRecords.callToolResult(r) != null) {
        fast++;
      }
    }
    assertThat(fast).as("results written by hand").isGreaterThan(4_000);
    sameResult(CallToolResult.text("hi"));
    sameResult(CallToolResult.error("no"));
    sameResult(CallToolResult.of(List.of()));
    ObjectNode decimals = F.objectNode().put("d", new BigDecimal("1.50")).put("f", 2.5);
    sameResult(new CallToolResult(List.of(), decimals, null, null));
  }

  @Test
  void resultsWithOtherBlocksOrUnusualNodesAreLeftToTheMapper() {
    assertThat(
            HotRecords.callToolResult(
                CallToolResult.of(List.of(ContentBlock.image("aGk=", "image/png")))))
        .isNull();
    ObjectNode floats = F.objectNode().put("f", 1.5f);
    assertThat(HotRecords.callToolResult(new CallToolResult(List.of(), floats, null, null)))
        .isNull();
    ObjectNode pojo = F.objectNode();
    pojo.putPOJO("p", List.of(1));
    assertThat(HotRecords.callToolResult(new CallToolResult(List.of(), null, null, pojo))).isNull();
    assertThat(McpJson.toTree(CallToolResult.text("a")).toString())
        .isEqualTo("{\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}");
  }
}
