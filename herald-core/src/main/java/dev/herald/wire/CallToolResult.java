package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code tools/call}. A tool's own failure is {@code isError: true}, not a JSON-RPC error. */
public record CallToolResult(
    List<ContentBlock> content,
    @Nullable JsonNode structuredContent,
    @Nullable Boolean isError,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CallToolResult {
    content = content == null ? List.of() : List.copyOf(content);
  }

  public static CallToolResult text(String text) {
    return new CallToolResult(List.of(ContentBlock.text(text)), null, null, null);
  }

  public static CallToolResult of(List<ContentBlock> content) {
    return new CallToolResult(content, null, null, null);
  }

  public static CallToolResult error(String message) {
    return new CallToolResult(List.of(ContentBlock.text(message)), null, true, null);
  }

  public boolean failed() {
    return Boolean.TRUE.equals(isError);
  }

  /** The text of the first text block, or empty. */
  public String firstText() {
    for (ContentBlock b : content) {
      if (b instanceof ContentBlock.Text t) {
        return t.text();
      }
    }
    return "";
  }
}
