package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Values of {@code result.resultType} (2026-07-28 {@code ResultType}). Ordinary result records do
 * not carry it: the modern encoder stamps {@link #COMPLETE} with {@link #stamp}; the records whose
 * kind it names ({@link InputRequiredResult}, {@link TasksExtension.CreateTaskResult}) carry it.
 */
public final class ResultType {
  private ResultType() {}

  /** A final result. Also what a missing {@code resultType} means (older servers). */
  public static final String COMPLETE = "complete";

  /** An {@link InputRequiredResult}: the client must fulfil input requests and retry. */
  public static final String INPUT_REQUIRED = "input_required";

  /** A task was created instead ({@code io.modelcontextprotocol/tasks} extension). */
  public static final String TASK = "task";

  /**
   * The {@code resultType} of a result tree: its string value, or {@link #COMPLETE} when absent.
   * A present non-string value is returned as {@code null}, which no caller recognises.
   */
  public static @Nullable String of(@Nullable JsonNode result) {
    JsonNode type = result == null ? null : result.get("resultType");
    if (type == null || type.isNull()) {
      return COMPLETE;
    }
    return type.isString() ? type.stringValue() : null;
  }

  /** Sets {@code resultType} on a result tree unless it already has one; returns the tree. */
  public static ObjectNode stamp(ObjectNode result, String resultType) {
    if (!result.has("resultType")) {
      result.put("resultType", resultType);
    }
    return result;
  }
}
