package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.herald.internal.session.MethodRow;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The params property shared by the server's and the client's method tables: reading any object
 * as a row's params type either gives a value that reads back the same from its own JSON, or
 * fails with -32602 in the protocol's terms (no Java class names).
 */
@SuppressWarnings("exports") // test-only helpers, shared by the fuzzers of every package
public final class ParamsFuzz {
  private ParamsFuzz() {}

  /**
   * Every params type of a role's method table, and the engine's cancellation and progress
   * notifications, which every role reads.
   */
  public static Arbitrary<Class<?>> paramsTypes(List<? extends MethodRow<?, ?, ?>> rows) {
    Set<Class<?>> types = new LinkedHashSet<>();
    for (MethodRow<?, ?, ?> row : rows) {
      if (row.paramsType() != Void.class) {
        types.add(row.paramsType());
      }
    }
    types.add(CancelledNotificationParams.class);
    types.add(ProgressNotificationParams.class);
    return Arbitraries.of(new ArrayList<>(types));
  }

  /** Random objects, valid params of the known shapes, and their mutations (re-parsed). */
  public static Arbitrary<ObjectNode> params() {
    Arbitrary<ObjectNode> shaped = Arbitraries.longs().map(seed -> shaped(new Random(seed)));
    Arbitrary<ObjectNode> mutated =
        Fuzz.mutated(shaped.map(o -> McpJson.mapper().writeValueAsBytes(o)))
            .map(ParamsFuzz::reparse)
            .filter(o -> o != null);
    return Arbitraries.oneOf(JsonGen.objects(), shaped, mutated);
  }

  /** Reads {@code params} as {@code type} and checks the outcome. */
  public static void check(Class<?> type, ObjectNode params) {
    Object value;
    try {
      value = Fuzz.bounded(() -> McpJson.fromTree(params, type));
    } catch (McpException e) {
      assertThat(e.code()).as("error code for %s", params).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(e.getMessage())
          .as("error message for %s", params)
          .doesNotContain("java.", "dev.herald", "tools.jackson", "LinkedHashMap");
      return;
    } catch (RuntimeException e) {
      fail("reading " + params + " as " + type.getSimpleName() + " threw " + e, e);
      return;
    }
    JsonNode written = McpJson.toTree(value);
    Object again = McpJson.fromTree(written, type);
    assertThat(McpJson.toTree(again)).as("round trip of %s", params).isEqualTo(written);
  }

  private static ObjectNode reparse(byte[] bytes) {
    DecodedMessage d =
        MessageCodec.decode(
            ("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":"
                    + new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                    + "}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return d instanceof DecodedMessage.Valid(JsonRpcMessage.Notification n) ? n.params() : null;
  }

  /** Params close to what the methods expect, with values of random types in their places. */
  private static ObjectNode shaped(Random r) {
    List<String> templates =
        List.of(
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"sampling\":{},\"roots\":{\"listChanged\":true},\"elicitation\":{\"form\":{}}},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}",
            "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"},\"_meta\":{\"progressToken\":7}}",
            "{\"uri\":\"test://static/1\"}",
            "{\"cursor\":\"abc\"}",
            "{\"level\":\"debug\"}",
            "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},\"argument\":{\"name\":\"a\",\"value\":\"v\"}}",
            "{\"requestId\":1,\"reason\":\"x\"}",
            "{\"progressToken\":\"t\",\"progress\":1.5,\"total\":10,\"message\":\"m\"}",
            "{\"taskId\":\"t1\"}",
            "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],\"maxTokens\":10}",
            "{\"message\":\"m\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}",
            "{\"mode\":\"url\",\"message\":\"m\",\"url\":\"https://x\",\"elicitationId\":\"e\"}",
            "{\"name\":\"t\",\"arguments\":{},\"task\":{\"ttl\":1000},\"inputResponses\":{\"k\":{}},\"requestState\":\"s\"}");
    ObjectNode o =
        (ObjectNode) McpJson.mapper().readTree(templates.get(r.nextInt(templates.size())));
    // replace one member's value with a random one, perhaps deep inside
    ObjectNode target = o;
    for (int depth = 0; depth < 3 && r.nextBoolean(); depth++) {
      List<String> names = List.copyOf(target.propertyNames());
      if (names.isEmpty()) {
        break;
      }
      JsonNode child = target.get(names.get(r.nextInt(names.size())));
      if (child instanceof ObjectNode c) {
        target = c;
      }
    }
    List<String> names = List.copyOf(target.propertyNames());
    if (!names.isEmpty() && r.nextInt(4) != 0) {
      target.set(names.get(r.nextInt(names.size())), JsonGen.value(r, 2));
    }
    return o;
  }
}
