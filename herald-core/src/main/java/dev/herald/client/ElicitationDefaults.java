package dev.herald.client;

import dev.herald.wire.ElicitResult;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Applies the defaults of an elicitation's requested schema to an accepted result (SEP-1034): a
 * top-level property the user did not fill in, and whose schema has a {@code default}, gets that
 * default. Values the user gave are never changed; declined and cancelled results pass through.
 */
final class ElicitationDefaults {
  private ElicitationDefaults() {}

  static ElicitResult apply(@Nullable ObjectNode requestedSchema, ElicitResult result) {
    if (requestedSchema == null || result.action() != ElicitResult.Action.ACCEPT) {
      return result;
    }
    JsonNode props = requestedSchema.get("properties");
    if (props == null || !props.isObject()) {
      return result;
    }
    ObjectNode content =
        result.content() == null ? dev.herald.wire.McpJson.object() : result.content().deepCopy();
    boolean changed = result.content() == null;
    for (var e : props.properties()) {
      JsonNode def = e.getValue().get("default");
      if (def != null && !content.has(e.getKey())) {
        content.set(e.getKey(), def.deepCopy());
        changed = true;
      }
    }
    return changed ? new ElicitResult(result.action(), content, result.meta()) : result;
  }
}
