package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** An icon for a tool, resource, prompt or implementation. {@code theme} is "light" or "dark". */
public record Icon(
    String src, @Nullable String mimeType, @Nullable List<String> sizes, @Nullable String theme) {
  public static Icon of(String src) {
    return new Icon(src, null, null, null);
  }
}
