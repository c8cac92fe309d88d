package dev.herald.wire;

/**
 * {@code type: "ref/resource"}: a completion reference to a resource template by its URI or URI
 * template (MCP {@code ResourceTemplateReference}).
 */
public record ResourceTemplateReference(String uri) implements CompletionReference {
  public ResourceTemplateReference {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static ResourceTemplateReference of(String uri) {
    return new ResourceTemplateReference(uri);
  }
}
