package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.ProgressUpdate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final AtomicLong now = new AtomicLong();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private ProgressBar bar(boolean terminal, String unit) {
    return new ProgressBar(
            new PrintStream(bytes, true, StandardCharsets.UTF_8),
            terminal,
            "job",
            unit,
            now::get,
            120,
            false)
        .begin();
  }

  private static ProgressUpdate update(double progress, Double total, String message) {
    return new ProgressUpdate(progress, total, message, Duration.ZERO, 1, false);
  }

  private String out() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void determinateBarShowsCellsPercentageCountsWithUnitElapsedAndMessage() {
    ProgressBar b = bar(true, "files");
    now.set(1_500_000_000L);
    assertThat(b.format(update(42, 100.0, "scanning"), true))
        .isEqualTo("job [##########--------------]  42% (42/100 files) 1.5s  scanning");
  }

  @Test
  void indeterminateProgressNeverInventsAPercentage() {
    ProgressBar b = bar(true, "files");
    now.set(3_200_000_000L);
    assertThat(b.format(update(42, null, "scanning"), true))
        .isEqualTo("job [|] 42 files so far, 3.2s  scanning");
  }

  @Test
  void barNeverMovesBackwardsWhenTheTotalGrows() {
    ProgressBar b = bar(true, null);
    b.format(update(5, 10.0, null), true);
    assertThat(b.format(update(6, 20.0, null), true))
        .startsWith("job [############------------]  50% (6/20)");
  }

  @Test
  void plainModePrintsOneLinePerUpdateAndLogsAsLines() {
    ProgressBar b = bar(false, "steps");
    b.show(update(1, 2.0, "one"));
    b.log("log [info] x: hello");
    b.show(update(2, 2.0, "two"));
    b.finish("");
    assertThat(out())
        .doesNotContain("\r", "\033")
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "job  50% (1/2 steps) 0.0s  one",
                "log [info] x: hello",
                "job 100% (2/2 steps) 0.0s  two",
                ""));
  }

  @Test
  void terminalModeRedrawsOneLineAndPrintsLogsAboveIt() {
    ProgressBar b = bar(true, null);
    b.show(update(1, 2.0, null));
    b.log("a log line");
    b.finish("done");
    assertThat(out())
        .isEqualTo(
            "\r\033[2Kjob [############------------]  50% (1/2) 0.0s"
                + "\r\033[2Ka log line"
                + System.lineSeparator()
                + "job [############------------]  50% (1/2) 0.0s"
                + "\r\033[2Kjob [############------------]  50% (1/2) 0.0s  done"
                + System.lineSeparator());
  }

  @Test
  void aBarThatNeverSawProgressIsErased() {
    bar(true, null).finish("");
    assertThat(out()).isEqualTo("\r\033[2K");
  }

  @Test
  void aTaskLineCarriesItsStatusAndStatusMessageBesideTheProgress() {
    ProgressBar b = bar(true, null);
    b.status("working", "ts: 1 of 2 s done");
    assertThat(b.format(update(2, 4.0, "step 2 of 4"), true))
        .isEqualTo(
            "job working [############------------]  50% (2/4) 0.0s  step 2 of 4"
                + "  | ts: 1 of 2 s done");
  }

  @Test
  void aTerminalStatusIsDrawnAtOnceWithTheLastProgressValue() {
    ProgressBar b = bar(true, null);
    b.status("working", null);
    b.show(update(4, 4.0, null));
    b.status("completed", null);
    b.finish("");
    assertThat(out())
        .isEqualTo(
            "\r\033[2Kjob working [|] waiting for progress, 0.0s"
                + "\r\033[2Kjob working [########################] 100% (4/4) 0.0s"
                + "\r\033[2Kjob completed [########################] 100% (4/4) 0.0s"
                + "\r\033[2Kjob completed [########################] 100% (4/4) 0.0s"
                + System.lineSeparator());
  }

  @Test
  void plainModePrintsEachStatusChangeOnceOnALineOfItsOwn() {
    ProgressBar b = bar(false, null);
    b.status("working", "starting");
    b.status("working", "starting");
    b.status("input_required", null);
    b.finish("");
    assertThat(out())
        .isEqualTo(
            String.join(
                System.lineSeparator(), "job: working  starting", "job: input_required", ""));
  }
}
