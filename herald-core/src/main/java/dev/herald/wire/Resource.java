package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A resource the server can read, as listed by {@code resources/list} (MCP {@code Resource}). */
public record Resource(
    String uri,
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable String mimeType,
    @Nullable Annotations annotations,
    @Nullable Long size,
    @Nullable List<Icon> icons,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public Resource {
    java.util.Objects.requireNonNull(uri, "uri");
    java.util.Objects.requireNonNull(name, "name");
    icons = icons == null ? null : List.copyOf(icons);
  }

  public static Resource of(String uri, String name, @Nullable String mimeType) {
    return new Resource(uri, name, null, null, mimeType, null, null, null, null);
  }

  /** The name a UI shows: {@code title}, then {@code name}. */
  public String displayName() {
    return title != null ? title : name;
  }
}
