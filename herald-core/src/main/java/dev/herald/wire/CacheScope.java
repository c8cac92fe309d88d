package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code cacheScope} of a cacheable result (2026-07-28 {@code CacheableResult}): whether a cached
 * response may be shared across authorization contexts ({@code public}) or not ({@code private}).
 */
public enum CacheScope {
  PUBLIC,
  PRIVATE;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<CacheScope> parse(String wire) {
    for (CacheScope s : values()) {
      if (s.wire().equals(wire)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @JsonCreator
  static CacheScope fromJson(String wire) {
    return parse(wire)
        .orElseThrow(() -> new IllegalArgumentException("unknown cacheScope: " + wire));
  }
}
