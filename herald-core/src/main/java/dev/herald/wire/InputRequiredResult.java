package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * 2026-07-28 {@code InputRequiredResult} ({@code resultType: "input_required"}): the server needs
 * input (elicitation, sampling, roots) before it can answer {@code tools/call},
 * {@code prompts/get} or {@code resources/read}; the client retries with {@code inputResponses}
 * and the opaque {@code requestState} echoed. At least one of the two members is present.
 */
public record InputRequiredResult(
    String resultType,
    @Nullable InputRequests inputRequests,
    @Nullable String requestState,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public InputRequiredResult {
    resultType = resultType == null ? ResultType.INPUT_REQUIRED : resultType;
    if (!ResultType.INPUT_REQUIRED.equals(resultType)) {
      throw new IllegalArgumentException(
          "resultType must be \"input_required\", was \"" + resultType + "\"");
    }
    if (inputRequests == null && requestState == null) {
      throw new IllegalArgumentException("inputRequests or requestState must be present");
    }
  }

  public static InputRequiredResult of(
      @Nullable InputRequests inputRequests, @Nullable String requestState) {
    return new InputRequiredResult(ResultType.INPUT_REQUIRED, inputRequests, requestState, null);
  }
}
