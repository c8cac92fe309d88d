package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A message in a {@code sampling/createMessage} conversation (MCP {@code SamplingMessage}).
 * {@code content} is one block or (since 2025-11-25) an array of blocks; it is kept as sent, and
 * {@link #blocks()} gives the typed view.
 */
public record SamplingMessage(
    Role role, JsonNode content, @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public SamplingMessage {
    java.util.Objects.requireNonNull(role, "role");
    java.util.Objects.requireNonNull(content, "content");
    if (!content.isObject() && !content.isArray()) {
      throw new IllegalArgumentException("content must be a content block or an array of them");
    }
  }

  /** A message with one block, written as a single object. */
  public static SamplingMessage of(Role role, SamplingContent block) {
    return new SamplingMessage(role, content(block), null);
  }

  /** A message with several blocks, written as an array. */
  public static SamplingMessage of(Role role, List<? extends SamplingContent> blocks) {
    return new SamplingMessage(role, content(blocks), null);
  }

  public static SamplingMessage user(String text) {
    return of(Role.USER, SamplingContent.text(text));
  }

  /** Whether {@code content} was sent as an array. */
  public boolean multiBlock() {
    return content.isArray();
  }

  /**
   * The content blocks, in order (one when {@code content} is a single object).
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when a block is malformed
   */
  public List<SamplingContent> blocks() {
    return blocks(content);
  }

  static List<SamplingContent> blocks(JsonNode content) {
    if (content.isArray()) {
      List<SamplingContent> out = new ArrayList<>(content.size());
      for (JsonNode item : content) {
        out.add(McpJson.fromTree(item, SamplingContent.class));
      }
      return List.copyOf(out);
    }
    return List.of(McpJson.fromTree(content, SamplingContent.class));
  }

  static JsonNode content(SamplingContent block) {
    return McpJson.toTree(java.util.Objects.requireNonNull(block, "block"));
  }

  static JsonNode content(List<? extends SamplingContent> blocks) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (SamplingContent b : blocks) {
      array.add(content(b));
    }
    return array;
  }
}
