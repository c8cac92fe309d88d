package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What {@code completion/complete} completes an argument of, by {@code type}: a prompt
 * ({@code ref/prompt}) or a resource template ({@code ref/resource}; called
 * {@code ResourceReference} in 2024-11-05 and 2025-03-26, same wire shape).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", visible = false)
@JsonSubTypes({
  @JsonSubTypes.Type(value = PromptReference.class, name = "ref/prompt"),
  @JsonSubTypes.Type(value = ResourceTemplateReference.class, name = "ref/resource")
})
public sealed interface CompletionReference permits PromptReference, ResourceTemplateReference {}
