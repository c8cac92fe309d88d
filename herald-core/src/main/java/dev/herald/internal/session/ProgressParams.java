package dev.herald.internal.session;

import dev.herald.wire.McpJson;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the params of {@code notifications/progress} (MCP 2025-11-25 basic/utilities/progress).
 *
 * <p>Design note. A receiver reads one of these per update, thousands per call, so the usual
 * shape (a string or integer token, a number {@code progress}, an optional number {@code total},
 * an optional string {@code message}) is read straight off the tree instead of through the
 * mapper's bean path, giving the same record. Any other shape (a {@code _meta}, a member of the
 * wrong type, a missing member) goes through the mapper, whose errors stay what they were.
 */
final class ProgressParams {
  private ProgressParams() {}

  /**
   * The typed params.
   *
   * @throws dev.herald.wire.McpException when they do not fit (as {@link McpJson#fromTree})
   */
  static ProgressNotificationParams read(@Nullable ObjectNode params) {
    ProgressNotificationParams plain = params == null ? null : plain(params);
    return plain != null ? plain : McpJson.fromTree(params, ProgressNotificationParams.class);
  }

  private static @Nullable ProgressNotificationParams plain(ObjectNode params) {
    ProgressToken token = null;
    BigDecimal progress = null;
    BigDecimal total = null;
    String message = null;
    for (Map.Entry<String, JsonNode> e : params.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "progressToken" -> {
          if (v.isString()) {
            token = ProgressToken.of(v.stringValue());
          } else if (v.isIntegralNumber() && v.canConvertToLong()) {
            token = ProgressToken.of(v.longValue());
          } else {
            return null;
          }
        }
        case "progress" -> {
          if (!v.isNumber()) {
            return null;
          }
          progress = v.decimalValue();
        }
        case "total" -> {
          if (v.isNumber()) {
            total = v.decimalValue();
          } else if (!v.isNull()) {
            return null;
          }
        }
        case "message" -> {
          if (v.isString()) {
            message = v.stringValue();
          } else if (!v.isNull()) {
            return null;
          }
        }
        case "_meta" -> {
          return null;
        }
        default -> {} // unknown members are ignored, as the mapper does
      }
    }
    if (token == null || progress == null) {
      return null;
    }
    return new ProgressNotificationParams(token, progress, total, message, null);
  }
}
