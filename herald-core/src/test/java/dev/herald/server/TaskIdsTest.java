package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Task ids: unguessable, URL-safe, and never mistaken for a command-line option. */
class TaskIdsTest {

  @Test
  void idsAreDistinctUrlSafeAndNeverBeginWithADash() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 20_000; i++) { // about 300 would begin with '-' if drawn as they come
      String id = TaskIds.next();
      assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]+").doesNotStartWith("-");
      assertThat(seen.add(id)).as("a fresh id").isTrue();
    }
  }
}
