package dev.herald.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.ProtocolVersion;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * One method name with a row per era (the 2025-11-25 {@code tasks/get} and the 2026-07-28 tasks
 * extension's): the table keeps both when their versions do not overlap, and refuses them when
 * they do.
 */
class MethodRowsByVersionTest {
  private static final MethodTable.Role<Object> ROLE =
      new MethodTable.Role<>() {
        @Override
        public @Nullable ProtocolVersion version(Object session, InboundCall call) {
          return null;
        }

        @Override
        public boolean initialized(Object session) {
          return true;
        }

        @Override
        public boolean declared(Object session, Capability capability, InboundCall call) {
          return true;
        }
      };

  private static MethodRow<Object, Void, String> row(
      java.util.function.Predicate<ProtocolVersion> in, String answer) {
    return MethodRow.request("tasks/get", Void.class, String.class)
        .in(in)
        .handler((Object s, Void p, InboundCall c) -> answer);
  }

  @Test
  void twoRowsOfOneMethodInDisjointVersionsAreKept() {
    MethodTable<Object> table =
        MethodTable.of(
            List.of(row(ProtocolVersion::handshake, "legacy"), row(v -> !v.handshake(), "modern")),
            List.of(),
            ROLE);
    assertThat(table.row("tasks/get")).isNotNull();
  }

  @Test
  void twoRowsOfOneMethodInTheSameVersionAreRefused() {
    assertThatThrownBy(() ->
            MethodTable.of(
                List.of(row(v -> true, "a"), row(v -> !v.handshake(), "b")), List.of(), ROLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tasks/get");
  }
}
