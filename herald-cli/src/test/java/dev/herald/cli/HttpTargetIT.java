package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code herald call}, {@code list} and {@code watch} against {@code herald serve --port 0}, a
 * real Streamable HTTP server in another process.
 */
@Timeout(90)
class HttpTargetIT {
  private Process server;
  private String url;

  @BeforeEach
  void startServer() throws Exception {
    server = new ProcessBuilder(HeraldJar.command(List.of(), "serve", "--port", "0")).start();
    BufferedReader err =
        new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
    String line = err.readLine();
    assertThat(line).contains("serving the demo fixture on http://127.0.0.1:");
    url = line.substring(line.indexOf("http://"), line.indexOf(" (legacy"));
    Thread.ofVirtual().start(() -> err.lines().forEach(l -> System.err.println("[serve] " + l)));
  }

  @AfterEach
  void stopServer() throws Exception {
    server.destroy();
    server.waitFor(10, TimeUnit.SECONDS);
  }

  @Test
  void callShowsProgressAndPrintsTheResultOverHttp() throws Exception {
    Cli.Run run =
        Cli.run(
            Cli.herald(
                List.of("call", url, "slow", "steps=4", "delayMs=20", "--unit", "steps"),
                List.of()));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().trim()).isEqualTo("completed 4 steps");
    assertThat(run.err()).contains("4/4").doesNotContain("Exception");
  }

  @Test
  void jsonOutputCarriesTheProgressRecordOverHttp() throws Exception {
    Cli.Run run =
        Cli.run(
            Cli.herald(
                List.of("call", url, "slow", "steps=3", "delayMs=10", "--output", "json"),
                List.of()));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"terminal\":\"response\"").contains("completed 3 steps");
  }

  @Test
  void listShowsTheFixtureOverHttp() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("list", url), List.of()));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("slow")
        .contains("demo://counter")
        .contains("test_simple_prompt");
  }

  @Test
  void watchPrintsUpdatesCausedByAnotherClientOfTheSameServer() throws Exception {
    Process watch =
        new ProcessBuilder(
                Cli.herald(List.of("watch", url, "--resource", "demo://counter"), List.of()))
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
      assertThat(Cli.run(Cli.herald(List.of("call", url, "update_resource"), List.of())).exit())
          .isZero();
      assertThat(Cli.run(Cli.herald(List.of("call", url, "touch", "area=tools"), List.of())).exit())
          .isZero();
      boolean updated = false;
      boolean changed = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (!(updated && changed) && System.nanoTime() < deadline) {
        String line = lines.poll(500, TimeUnit.MILLISECONDS);
        if (line != null) {
          updated |= line.contains("resources/updated demo://counter");
          changed |= line.contains("tools/list_changed");
        }
      }
      assertThat(updated).as("resources/updated line").isTrue();
      assertThat(changed).as("tools/list_changed line").isTrue();
      new ProcessBuilder("kill", "-INT", Long.toString(watch.pid())).start().waitFor();
      assertThat(watch.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(watch.exitValue()).isEqualTo(130);
    } finally {
      watch.destroyForcibly();
    }
  }
}
