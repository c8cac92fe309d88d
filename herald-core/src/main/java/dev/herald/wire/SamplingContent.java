package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A content block of a sampling message (MCP {@code SamplingMessageContentBlock}), by {@code type}:
 * text, image and audio (the {@link ContentBlock} records), and since 2025-11-25 {@code tool_use}
 * and {@code tool_result}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", visible = false)
@JsonSubTypes({
  @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
  @JsonSubTypes.Type(value = ContentBlock.Image.class, name = "image"),
  @JsonSubTypes.Type(value = ContentBlock.Audio.class, name = "audio"),
  @JsonSubTypes.Type(value = SamplingContent.ToolUse.class, name = "tool_use"),
  @JsonSubTypes.Type(value = SamplingContent.ToolResult.class, name = "tool_result")
})
public sealed interface SamplingContent
    permits ContentBlock.Text,
        ContentBlock.Image,
        ContentBlock.Audio,
        SamplingContent.ToolUse,
        SamplingContent.ToolResult {

  /** {@code type: "tool_use"}: the model asks to call tool {@code name} with {@code input}. */
  record ToolUse(
      String id, String name, ObjectNode input, @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements SamplingContent {
    public ToolUse {
      java.util.Objects.requireNonNull(id, "id");
      java.util.Objects.requireNonNull(name, "name");
      input = input == null ? McpJson.object() : input;
    }
  }

  /**
   * {@code type: "tool_result"}: the outcome of the tool use {@code toolUseId}, shaped like a
   * {@code CallToolResult}.
   */
  record ToolResult(
      String toolUseId,
      List<ContentBlock> content,
      @Nullable JsonNode structuredContent,
      @Nullable Boolean isError,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements SamplingContent {
    public ToolResult {
      java.util.Objects.requireNonNull(toolUseId, "toolUseId");
      content = content == null ? List.of() : List.copyOf(content);
    }
  }

  static SamplingContent text(String text) {
    return new ContentBlock.Text(text, null, null);
  }

  static SamplingContent toolUse(String id, String name, ObjectNode input) {
    return new ToolUse(id, name, input, null);
  }

  static SamplingContent toolResult(String toolUseId, List<ContentBlock> content) {
    return new ToolResult(toolUseId, content, null, null, null);
  }
}
