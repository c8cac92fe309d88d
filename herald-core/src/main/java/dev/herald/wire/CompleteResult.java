package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code completion/complete}: at most {@value Completion#MAX_VALUES} suggestions. */
public record CompleteResult(
    Completion completion, @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CompleteResult {
    java.util.Objects.requireNonNull(completion, "completion");
  }

  /**
   * {@code completion}: {@code values} (at most 100), the optional {@code total} number of matches
   * and whether there are more than were returned.
   */
  public record Completion(List<String> values, @Nullable Long total, @Nullable Boolean hasMore) {
    /** Most values one result may carry. */
    public static final int MAX_VALUES = 100;

    public Completion {
      values = values == null ? List.of() : List.copyOf(values);
      if (values.size() > MAX_VALUES) {
        throw new IllegalArgumentException(
            "completion.values has "
                + values.size()
                + " items; at most "
                + MAX_VALUES
                + " allowed");
      }
    }
  }

  /** The first 100 of {@code matches}, with {@code total} and {@code hasMore} set from the full list. */
  public static CompleteResult of(List<String> matches) {
    List<String> head =
        matches.size() > Completion.MAX_VALUES
            ? matches.subList(0, Completion.MAX_VALUES)
            : matches;
    return new CompleteResult(
        new Completion(head, (long) matches.size(), matches.size() > Completion.MAX_VALUES), null);
  }

  /** No suggestions. */
  public static CompleteResult empty() {
    return new CompleteResult(new Completion(List.of(), null, null), null);
  }
}
