package dev.herald.cli;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.Background;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code herald watch} against the {@link TestServer}, which changes its catalogs, updates a
 * resource and logs on a timer (a stdio server is per-process, so no second client could).
 */
@Timeout(60)
class WatchCommandIT {
  private static final String TIME = "\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d ";

  @Test
  void watchPrintsEachNotificationOnATimestampedLineUntilCtrlC() throws Exception {
    String marker = "watch-it-" + UUID.randomUUID();
    Process p =
        new ProcessBuilder(
                Cli.herald(
                    List.of("watch", "--resource", TestServer.TICKER, "--level", "info"),
                    Cli.testServer("-Dtest.ticker=true", "-Dherald.it.marker=" + marker)))
            .start();
    p.getOutputStream().close();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofVirtual()
        .start(() -> {
          try (BufferedReader r =
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            r.lines().forEach(lines::add);
          } catch (Exception ignored) {
            // process gone
          }
        });
    CompletableFuture<String> err =
        Background.supply(() -> {
          try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
          } catch (Exception e) {
            return "";
          }
        });
    try {
      List<String> wanted =
          List.of(
              "tools/list_changed",
              "prompts/list_changed",
              "resources/list_changed",
              "resources/updated " + TestServer.TICKER,
              "log [info] ticker: tick ");
      java.util.Set<String> seen = new java.util.HashSet<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (seen.size() < wanted.size() && System.nanoTime() < deadline) {
        String line = lines.poll(500, TimeUnit.MILLISECONDS);
        if (line == null) {
          continue;
        }
        assertThat(line).matches(TIME + ".+");
        String body = line.substring(13);
        wanted.stream().filter(body::startsWith).forEach(seen::add);
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(wanted);
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(130);
      assertThat(err.get(5, TimeUnit.SECONDS))
          .contains("watching test-server 1")
          .contains("stopped")
          .doesNotContain("Exception");
      awaitGone(marker);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Test
  void watchOnA2026ServerSeesListChangesAndUpdatesThroughSubscriptionsListen() throws Exception {
    String marker = "watch-modern-" + UUID.randomUUID();
    Process p =
        new ProcessBuilder(
                Cli.herald(
                    List.of("watch", "--era", "modern", "--resource", TestServer.TICKER),
                    Cli.testServer("-Dtest.ticker=true", "-Dherald.it.marker=" + marker)))
            .start();
    p.getOutputStream().close();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofVirtual()
        .start(() -> {
          try (BufferedReader r =
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            r.lines().forEach(lines::add);
          } catch (Exception ignored) {
            // process gone
          }
        });
    CompletableFuture<String> err =
        Background.supply(() -> {
          try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
          } catch (Exception e) {
            return "";
          }
        });
    try {
      List<String> wanted =
          List.of(
              "tools/list_changed",
              "prompts/list_changed",
              "resources/list_changed",
              "resources/updated " + TestServer.TICKER);
      java.util.Set<String> seen = new java.util.HashSet<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (seen.size() < wanted.size() && System.nanoTime() < deadline) {
        String line = lines.poll(500, TimeUnit.MILLISECONDS);
        if (line == null) {
          continue;
        }
        assertThat(line).matches(TIME + ".+");
        String body = line.substring(13);
        wanted.stream().filter(body::startsWith).forEach(seen::add);
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(wanted);
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(130);
      assertThat(err.get(5, TimeUnit.SECONDS))
          .contains(
              "watching test-server 1, protocol 2026-07-28 (modern era, subscriptions/listen)")
          .doesNotContain("Exception");
      awaitGone(marker);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Test
  void watchEndsWithOneLineAndExitOneWhenTheServerGoesAway() throws Exception {
    Cli.Run run =
        Cli.run(Cli.herald(List.of("watch"), Cli.testServer("-Dtest.exit.after.ms=1500")));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().lines().filter(l -> l.startsWith("herald:")).toList())
        .singleElement()
        .asString()
        .startsWith("herald: the server went away")
        .endsWith("(server exited with code 4)");
  }

  @Test
  void unknownLevelIsAUsageError() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("watch", "--level", "loud"), Cli.testServer()));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("herald: unknown log level 'loud'");
  }

  static void awaitGone(String marker) throws InterruptedException {
    eventually(
        () -> !Cli.anyProcessWith(marker), "no server process tagged " + marker + " survives");
  }
}
