package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code herald demo} runs start to end as a real process and shows each part of the walk-through. */
@Timeout(90)
class DemoIT {

  @Test
  void demoWalksThroughEveryNotificationFamilyAndExitsCleanly() throws Exception {
    Process p =
        new ProcessBuilder(HeraldJar.command(List.of(), "demo", "--plain", "--speed", "4"))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out)
        .contains("Connected over Streamable HTTP")
        .contains("slow A       -> completed 24 steps")
        .contains("slow B       -> completed 12 steps")
        .contains("-> cancelled: notifications/cancelled sent")
        .contains("notifications/tools/list_changed arrived")
        .contains("next use refetched tools/list once")
        .contains("notifications/resources/updated demo://counter")
        .contains("log [info] demo: log message 1 of 1")
        .contains("log [warning] demo: log message 1 of 1")
        .contains("sent GET with Last-Event-ID and got the result")
        .contains("task T       completed")
        .contains("task T       -> T: computed for 0.75 s")
        .contains("task U       -> tasks/cancel sent, the task ended cancelled")
        .contains("task U       cancelled")
        .contains("T: ")
        .contains(
            "Summary: 13 tool calls; received 3 log messages, 1 list change, 2 resource updates")
        .doesNotContain("Exception");
    // Plain mode: no terminal escapes.
    assertThat(out).doesNotContain("\033[");
  }
}
