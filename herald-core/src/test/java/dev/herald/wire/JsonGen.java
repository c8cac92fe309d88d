package dev.herald.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Random JSON values for the fuzzers, drawn from a seed so jqwik can report and replay them. */
@SuppressWarnings("exports") // test-only helpers, shared by the fuzzers of every package
public final class JsonGen {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String[] KEYS = {
    "name",
    "uri",
    "arguments",
    "cursor",
    "_meta",
    "progressToken",
    "id",
    "level",
    "ref",
    "argument",
    "value",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "version",
    "taskId",
    "requestId",
    "reason",
    "progress",
    "total",
    "message",
    "task",
    "ttl",
    "inputResponses",
    "requestState",
    "type",
    "",
    "\u00e9",
    "a.b"
  };

  private JsonGen() {}

  /** Random JSON objects, up to a few levels deep. */
  public static Arbitrary<ObjectNode> objects() {
    return Arbitraries.longs().map(seed -> object(new Random(seed), 3));
  }

  /** A random object drawn from {@code random}. */
  public static ObjectNode object(Random random, int depth) {
    ObjectNode o = F.objectNode();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      o.set(KEYS[random.nextInt(KEYS.length)], value(random, depth - 1));
    }
    return o;
  }

  /** A random JSON value drawn from {@code random}. */
  public static JsonNode value(Random random, int depth) {
    int kind = random.nextInt(depth <= 0 ? 7 : 9);
    return switch (kind) {
      case 0 -> F.nullNode();
      case 1 -> F.booleanNode(random.nextBoolean());
      case 2 -> F.numberNode(random.nextInt(7) - 3);
      case 3 -> F.numberNode(random.nextLong());
      case 4 -> F.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 5 -> F.stringNode(text(random));
      case 6 ->
          F.numberNode(
              new java.math.BigInteger(1 + random.nextInt(120), random)
                  .multiply(java.math.BigInteger.valueOf(random.nextBoolean() ? 1 : -1)));
      case 7 -> {
        ArrayNode a = F.arrayNode();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          a.add(value(random, depth - 1));
        }
        yield a;
      }
      default -> object(random, depth - 1);
    };
  }

  /** A short random string with ASCII, escapes, non-ASCII and astral characters. */
  public static String text(Random random) {
    String pool = "abcXYZ019 ./_-:?#%{}\"\\\n\t\u0001\u007f\u00e9\u4e2d\ud83d\ude00\u202e";
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      char c = pool.charAt(random.nextInt(pool.length()));
      if (Character.isHighSurrogate(c)) {
        s.append("\ud83d\ude00"); // keep pairs whole: the wire is UTF-8
      } else if (!Character.isLowSurrogate(c)) {
        s.append(c);
      }
    }
    return s.toString();
  }

  /**
   * Every node's class in {@code n}, depth first (empty for null): equal trees may still differ in
   * node kinds, which a hand-written reader must match too.
   */
  public static List<String> kinds(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null) {
      collect(n, out);
    }
    return out;
  }

  private static void collect(JsonNode n, List<String> out) {
    out.add(n.getClass().getSimpleName());
    for (JsonNode c : n.values()) {
      collect(c, out);
    }
  }
}
