package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationsTest {
  @Test
  void shortFormsAndIsoDurationsParse() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void nonsenseAndNonPositiveDurationsAreRefused() {
    assertThatThrownBy(() -> Durations.parse("soon"))
        .isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("try 500ms, 30s, 5m or 1h");
    assertThatThrownBy(() -> Durations.parse("0s")).hasMessageContaining("positive");
  }

  @Test
  void durationsReadBackTheWayTheyAreTyped() {
    assertThat(Durations.format(Duration.ofMillis(700))).isEqualTo("700ms");
    assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Durations.format(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
  }
}
