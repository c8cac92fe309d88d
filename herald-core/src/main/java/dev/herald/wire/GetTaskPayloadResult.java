package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code tasks/result} (2025-11-25 core tasks): whatever the original request would
 * have returned, kept whole as a tree, plus the related-task {@code _meta} it must carry.
 */
public record GetTaskPayloadResult(ObjectNode result) {

  public GetTaskPayloadResult {
    java.util.Objects.requireNonNull(result, "result");
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static GetTaskPayloadResult fromJson(ObjectNode result) {
    return new GetTaskPayloadResult(result);
  }

  @JsonValue
  @Override
  public ObjectNode result() {
    return result;
  }

  /** The original result with {@code _meta["io.modelcontextprotocol/related-task"] = {taskId}} added. */
  public static GetTaskPayloadResult of(Object originalResult, String taskId) {
    ObjectNode tree =
        java.util.Objects.requireNonNull(McpJson.toObject(originalResult), "originalResult")
            .deepCopy();
    JsonNode meta = tree.get("_meta");
    ObjectNode m = meta instanceof ObjectNode o ? o : tree.putObject("_meta");
    m.set(MetaKeys.RELATED_TASK, McpJson.toTree(RelatedTaskMetadata.of(taskId)));
    return new GetTaskPayloadResult(tree);
  }

  /** The related task named in {@code _meta}, or {@code null}. */
  public @Nullable RelatedTaskMetadata relatedTask() {
    JsonNode meta = result.get("_meta");
    return MetaKeys.relatedTask(meta instanceof ObjectNode o ? o : null);
  }

  /**
   * The payload as a typed result, e.g. {@code as(CallToolResult.class)}.
   *
   * @throws McpException with {@link ErrorCodes#INTERNAL_ERROR} when the payload does not fit
   */
  public <T> T as(Class<T> type) {
    return McpJson.resultFromTree(result, type);
  }
}
