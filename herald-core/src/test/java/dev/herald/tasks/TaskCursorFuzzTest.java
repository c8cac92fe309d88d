package dev.herald.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.Fuzz;
import dev.herald.wire.ProtocolVersion;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assertions;

/**
 * Fuzzes the task store's listing cursors (MCP 2025-11-25 basic/utilities/tasks, {@code
 * tasks/list}): a mutated, random or borrowed cursor is refused with {@link
 * IllegalArgumentException} unless it is, character for character, one the store issued to that
 * owner.
 */
class TaskCursorFuzzTest {
  private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
  private static final TaskOwner OWNER = TaskOwner.session("s1");
  private static final InMemoryTaskStore STORE = new InMemoryTaskStore(100, 100);
  private static final List<String> ISSUED = fill();

  private static List<String> fill() {
    for (int i = 0; i < 12; i++) {
      STORE.create(
          StoredTask.create(
              "task-" + i,
              OWNER,
              "tools/call",
              ProtocolVersion.Era.MODERN,
              T0.plusMillis(i % 5),
              Duration.ofDays(1),
              Duration.ofSeconds(1)));
    }
    List<String> cursors = new ArrayList<>();
    String cursor = null;
    do {
      cursor = STORE.list(OWNER, cursor, 2, T0).nextCursor();
      if (cursor != null) {
        cursors.add(cursor);
      }
    } while (cursor != null);
    return Collections.unmodifiableList(cursors);
  }

  @Provide
  Arbitrary<String> cursors() {
    Arbitrary<String> valid = Arbitraries.of(ISSUED);
    return Arbitraries.oneOf(
        Fuzz.mutatedText(valid),
        Arbitraries.strings().ofMaxLength(60),
        valid.map(c -> c.replace(".", "==.")),
        valid.map(c -> c + "=="));
  }

  @Property
  void aCursorIsAcceptedOnlyAsIssuedToItsOwner(@ForAll("cursors") String cursor) {
    try {
      TaskStore.Page page = Fuzz.bounded(() -> STORE.list(OWNER, cursor, 2, T0));
      assertThat(ISSUED).contains(cursor);
      assertThat(page.tasks()).isNotEmpty();
    } catch (IllegalArgumentException e) {
      assertThat(ISSUED).doesNotContain(cursor);
    }
    Assertions.assertThrows(
        IllegalArgumentException.class, () -> STORE.list(TaskOwner.session("s2"), cursor, 2, T0));
  }

  /**
   * Found by {@link #aCursorIsAcceptedOnlyAsIssuedToItsOwner}: the decoder ignored the spare bits of
   * the last base64 character and padding, so cursors that were never issued were accepted.
   */
  @Example
  void aCursorWithPaddingOrOtherSpareBitsIsRefused() {
    String cursor = ISSUED.get(0);
    char last = cursor.charAt(cursor.length() - 1);
    String base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    String sibling =
        cursor.substring(0, cursor.length() - 1) + base64url.charAt(base64url.indexOf(last) ^ 1);
    for (String forged : List.of(sibling, cursor + "==", cursor.replace(".", "==."))) {
      Assertions.assertThrows(
          IllegalArgumentException.class, () -> STORE.list(OWNER, forged, 2, T0));
    }
  }
}
