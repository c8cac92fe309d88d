package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.Background;
import dev.herald.testing.HeraldJar;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code herald call} and {@code herald watch} against the TypeScript SDK server, stdio and HTTP. */
@Timeout(90)
class CliAgainstTypeScriptIT {

  record Run(int exit, String out, String err) {}

  static Run run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).start();
    p.getOutputStream().close();
    CompletableFuture<String> err =
        Background.supply(() -> {
          try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
          } catch (Exception e) {
            return "";
          }
        });
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out, err.get(10, TimeUnit.SECONDS));
  }

  @Test
  void callShowsTheTypeScriptServersProgressAndResultOverStdio() throws Exception {
    List<String> cmd =
        new ArrayList<>(HeraldJar.command("call", "slow", "steps=3", "delayMs=20", "--"));
    cmd.addAll(List.of("node", TsPeer.dir().resolve("server.mjs").toString()));
    Run run = run(cmd);
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().trim()).isEqualTo("completed 3 steps");
    assertThat(run.err()).contains("3/3").doesNotContain("Exception");
  }

  @Test
  void watchPrintsTheTypeScriptServersNotificationsOverHttp() throws Exception {
    try (TsPeer.HttpServer ts = TsPeer.httpServer()) {
      String url = ts.uri().toString();
      Process watch =
          new ProcessBuilder(
                  HeraldJar.command(
                      "watch", url, "--resource", "demo://counter", "--level", "info"))
              .start();
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      Thread.ofVirtual()
          .start(() -> {
            try (BufferedReader r =
                new BufferedReader(
                    new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8))) {
              r.lines().forEach(lines::add);
            } catch (Exception ignored) {
              // process gone
            }
          });
      java.util.concurrent.CountDownLatch watching = new java.util.concurrent.CountDownLatch(1);
      Thread.ofVirtual()
          .start(() -> {
            try (BufferedReader r =
                new BufferedReader(
                    new InputStreamReader(watch.getErrorStream(), StandardCharsets.UTF_8))) {
              r.lines()
                  .forEach(l -> {
                    if (l.contains("watching")) {
                      watching.countDown();
                    }
                  });
            } catch (Exception ignored) {
              // process gone
            }
          });
      try {
        assertThat(watching.await(30, TimeUnit.SECONDS))
            .as("watch connected and subscribed")
            .isTrue();
        // The TS server notifies every subscribed session of a counter update, whoever caused it.
        assertThat(run(HeraldJar.command("call", url, "update_resource")).exit()).isZero();
        boolean updated = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!updated && System.nanoTime() < deadline) {
          String line = lines.poll(500, TimeUnit.MILLISECONDS);
          updated = line != null && line.contains("resources/updated demo://counter");
        }
        assertThat(updated).as("a resources/updated line from the TypeScript server").isTrue();
        new ProcessBuilder("kill", "-INT", Long.toString(watch.pid())).start().waitFor();
        assertThat(watch.waitFor(15, TimeUnit.SECONDS)).isTrue();
        assertThat(watch.exitValue()).isEqualTo(130);
      } finally {
        watch.destroyForcibly();
      }
    }
  }
}
