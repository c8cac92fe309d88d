package dev.herald.wire;

/** One message of a {@code prompts/get} result (MCP {@code PromptMessage}): a role and one content block. */
public record PromptMessage(Role role, ContentBlock content) {
  public PromptMessage {
    java.util.Objects.requireNonNull(role, "role");
    java.util.Objects.requireNonNull(content, "content");
  }

  public static PromptMessage user(String text) {
    return new PromptMessage(Role.USER, ContentBlock.text(text));
  }

  public static PromptMessage assistant(String text) {
    return new PromptMessage(Role.ASSISTANT, ContentBlock.text(text));
  }
}
