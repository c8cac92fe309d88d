package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code sampling/createMessage}: a server→client request in the legacy era, an
 * {@code inputRequests} entry in 2026-07-28. {@code tools}/{@code toolChoice} exist from
 * 2025-11-25; {@code task} is the legacy task augmentation (2025-11-25 only).
 */
public record CreateMessageParams(
    List<SamplingMessage> messages,
    @Nullable ModelPreferences modelPreferences,
    @Nullable String systemPrompt,
    @Nullable IncludeContext includeContext,
    @Nullable Double temperature,
    Integer maxTokens,
    @Nullable List<String> stopSequences,
    @Nullable ObjectNode metadata,
    @Nullable List<Tool> tools,
    @Nullable ToolChoice toolChoice,
    @Nullable TaskMetadata task,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CreateMessageParams {
    messages = List.copyOf(java.util.Objects.requireNonNull(messages, "messages"));
    java.util.Objects.requireNonNull(maxTokens, "maxTokens");
    stopSequences = stopSequences == null ? null : List.copyOf(stopSequences);
    tools = tools == null ? null : List.copyOf(tools);
  }

  /** {@code includeContext}; {@code thisServer} and {@code allServers} are deprecated in 2026-07-28. */
  public enum IncludeContext {
    NONE("none"),
    THIS_SERVER("thisServer"),
    ALL_SERVERS("allServers");

    private final String wire;

    IncludeContext(String wire) {
      this.wire = wire;
    }

    @JsonValue
    public String wire() {
      return wire;
    }

    @JsonCreator
    static IncludeContext fromJson(String wire) {
      for (IncludeContext c : values()) {
        if (c.wire.equals(wire)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown includeContext: " + wire);
    }
  }

  public static CreateMessageParams of(List<SamplingMessage> messages, int maxTokens) {
    return new CreateMessageParams(
        messages, null, null, null, null, maxTokens, null, null, null, null, null, null);
  }
}
