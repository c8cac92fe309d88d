package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of every paginated list request: an opaque {@code cursor}. */
public record PaginatedParams(
    @Nullable String cursor, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public static PaginatedParams first() {
    return new PaginatedParams(null, null);
  }

  public static PaginatedParams after(@Nullable String cursor) {
    return new PaginatedParams(cursor, null);
  }
}
