package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Name and version of an MCP implementation ({@code clientInfo}, {@code serverInfo}). */
public record Implementation(
    String name,
    @Nullable String title,
    String version,
    @Nullable String description,
    @Nullable List<Icon> icons,
    @Nullable String websiteUrl) {

  public Implementation {
    java.util.Objects.requireNonNull(name, "name");
    java.util.Objects.requireNonNull(version, "version");
  }

  public static Implementation of(String name, String version) {
    return new Implementation(name, null, version, null, null, null);
  }
}
