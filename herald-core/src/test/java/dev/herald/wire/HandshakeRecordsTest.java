package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The handshake's records, read and written by hand, are exactly the mapper's (the same record,
 * the same tree with the same node kinds), and anything unusual is left to the mapper.
 */
class HandshakeRecordsTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String[] CLIENT_CAPS = {
    "experimental", "roots", "sampling", "elicitation", "tasks", "extensions", "other"
  };
  private static final String[] SERVER_CAPS = {
    "experimental",
    "logging",
    "completions",
    "prompts",
    "resources",
    "tools",
    "tasks",
    "extensions",
    "other"
  };

  /** A member value: usually the right shape, sometimes null, sometimes anything. */
  private static JsonNode member(Random random, boolean flags) {
    return switch (random.nextInt(6)) {
      case 0 -> F.nullNode();
      case 1 -> JsonGen.value(random, 2);
      default -> {
        if (!flags) {
          yield JsonGen.object(random, 2);
        }
        ObjectNode o = F.objectNode();
        for (String k : List.of("listChanged", "subscribe", "x")) {
          switch (random.nextInt(4)) {
            case 0 -> o.put(k, random.nextBoolean());
            case 1 -> o.putNull(k);
            case 2 -> o.set(k, JsonGen.value(random, 1));
            default -> {}
          }
        }
        yield o;
      }
    };
  }

  private static ObjectNode caps(Random random, String[] names) {
    ObjectNode c = F.objectNode();
    for (String k : names) {
      if (random.nextInt(3) != 0) {
        boolean flags =
            k.equals("roots") || k.equals("prompts") || k.equals("resources") || k.equals("tools");
        c.set(k, member(random, flags));
      }
    }
    return c;
  }

  private static ObjectNode info(Random random) {
    ObjectNode i = F.objectNode().put("name", JsonGen.text(random));
    if (random.nextInt(8) != 0) {
      i.put("version", JsonGen.text(random));
    }
    if (random.nextBoolean()) {
      i.put("title", JsonGen.text(random));
    }
    if (random.nextInt(4) == 0) {
      i.put("websiteUrl", "https://example.com/" + random.nextInt(9));
    }
    return i;
  }

  private static ObjectNode envelope(Random random, String versionKey, String[] capNames) {
    ObjectNode p = F.objectNode();
    if (random.nextInt(10) != 0) {
      p.put("protocolVersion", random.nextBoolean() ? "2025-11-25" : JsonGen.text(random));
    }
    if (random.nextInt(10) != 0) {
      p.set(
          "capabilities", random.nextInt(10) == 0 ? member(random, false) : caps(random, capNames));
    }
    if (random.nextInt(10) != 0) {
      p.set(versionKey, random.nextInt(10) == 0 ? JsonGen.value(random, 1) : info(random));
    }
    if (random.nextInt(4) == 0) {
      p.set("_meta", member(random, false));
    }
    if (random.nextInt(4) == 0) {
      p.set("instructions", random.nextBoolean() ? F.stringNode("use it") : member(random, false));
    }
    return p;
  }

  @Test
  void initializeParamsReadByHandEqualTheMappers() {
    Random random = new Random(13);
    int fast = 0;
    for (int i = 0; i < 5_000; i++) {
      ObjectNode p = envelope(random, "clientInfo", CLIENT_CAPS);
      for (ObjectNode tree : List.of(p, (ObjectNode) McpJson.mapper().readTree(p.toString()))) {
        InitializeParams hand = HandshakeRecords.initializeParams(tree);
        if (hand != null) {
          fast++;
          InitializeParams slow = McpJson.mapper().treeToValue(tree, InitializeParams.class);
          assertThat(hand).as("%s", tree).isEqualTo(slow);
          assertThat(McpJson.toTree(hand)).isEqualTo(McpJson.mapper().valueToTree(slow));
        }
      }
    }
    assertThat(fast).as("params read by hand").isGreaterThan(1_000);
  }

  @Test
  void initializeResultsReadByHandEqualTheMappers() {
    Random random = new Random(19);
    int fast = 0;
    for (int i = 0; i < 5_000; i++) {
      ObjectNode r = envelope(random, "serverInfo", SERVER_CAPS);
      for (ObjectNode tree : List.of(r, (ObjectNode) McpJson.mapper().readTree(r.toString()))) {
        InitializeResult hand = HandshakeRecords.initializeResult(tree);
        if (hand != null) {
          fast++;
          InitializeResult slow = McpJson.mapper().treeToValue(tree, InitializeResult.class);
          assertThat(hand).as("%s", tree).isEqualTo(slow);
          assertThat(McpJson.resultFromTree(tree, InitializeResult.class)).isEqualTo(slow);
          JsonNode written = McpJson.toTree(hand);
          JsonNode mapperWritten = McpJson.mapper().valueToTree(slow);
          assertThat(written).isEqualTo(mapperWritten);
          assertThat(written.toString()).isEqualTo(mapperWritten.toString());
        }
      }
    }
    assertThat(fast).as("results read by hand").isGreaterThan(1_000);
  }

  @Test
  void recordsWithIconsOrUnusualNodesAreLeftToTheMapper() {
    Implementation withIcons =
        new Implementation(
            "s", null, "1", null, List.of(new Icon("https://x/i.png", null, null, null)), null);
    assertThat(HandshakeRecords.tree(withIcons)).isNull();
    ObjectNode pojo = F.objectNode();
    pojo.set("x", F.pojoNode(new Object()));
    InitializeResult odd =
        new InitializeResult(
            "2025-11-25",
            new ServerCapabilities(pojo, null, null, null, null, null, null, null),
            Implementation.of("s", "1"),
            null,
            null);
    assertThat(HandshakeRecords.tree(odd)).isNull();
    assertThat(HandshakeRecords.initializeParams(F.objectNode().put("protocolVersion", 5)))
        .isNull();
    assertThat(HandshakeRecords.tree(Implementation.of("s", "1")))
        .isEqualTo(McpJson.mapper().valueToTree(Implementation.of("s", "1")));
  }
}
