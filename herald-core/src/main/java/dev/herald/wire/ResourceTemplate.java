package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A parameterized resource (RFC 6570 {@code uriTemplate}), listed by {@code resources/templates/list}. */
public record ResourceTemplate(
    String uriTemplate,
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable String mimeType,
    @Nullable Annotations annotations,
    @Nullable List<Icon> icons,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public ResourceTemplate {
    java.util.Objects.requireNonNull(uriTemplate, "uriTemplate");
    java.util.Objects.requireNonNull(name, "name");
    icons = icons == null ? null : List.copyOf(icons);
  }

  public static ResourceTemplate of(String uriTemplate, String name, @Nullable String mimeType) {
    return new ResourceTemplate(uriTemplate, name, null, null, mimeType, null, null, null);
  }
}
