package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real {@code herald serve --stdio} process logs to stderr, one line each in Herald's format, at
 * the HERALD_LOG level (warning by default), although it sets {@code java.util.logging} up only
 * when something first logs.
 */
@Timeout(120)
class ServeLoggingIT {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  @Test
  void byDefaultAWarningReachesStderrInHeraldsFormatAndDebugLinesDoNot() throws Exception {
    char[] big = new char[5 * 1024 * 1024];
    Arrays.fill(big, 'x');
    Run run = serve(null, INITIALIZE, "not json", "\"" + new String(big) + "\"");
    assertThat(run.stdout()).contains("\"protocolVersion\":\"2025-11-25\"");
    assertThat(run.stderr())
        .containsPattern("(?m)^herald WARNING dev\\.herald\\.transport\\.stdio: .*discarded a line")
        .doesNotContain("invalid frame");
  }

  @Test
  void heraldLogDebugAlsoShowsDebugLines() throws Exception {
    Run run = serve("debug", INITIALIZE, "not json");
    assertThat(run.stdout()).contains("\"protocolVersion\":\"2025-11-25\"");
    assertThat(run.stderr())
        .containsPattern("(?m)^herald FINE dev\\.herald\\.session: .*invalid frame");
  }

  private record Run(String stdout, String stderr) {}

  /** Runs the server with these stdin lines, then closes stdin and waits for it to end. */
  private static Run serve(@Nullable String heraldLog, String... lines) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(HeraldJar.command(List.of(), "serve", "--stdio"));
    pb.environment().remove("HERALD_LOG");
    if (heraldLog != null) {
      pb.environment().put("HERALD_LOG", heraldLog);
    }
    Process p = pb.start();
    try {
      CompletableFuture<String> out = read(p.getInputStream());
      CompletableFuture<String> err = read(p.getErrorStream());
      try (OutputStream in = p.getOutputStream()) {
        for (String line : lines) {
          in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
          in.flush();
        }
      }
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the server ends when stdin closes").isTrue();
      return new Run(out.get(30, TimeUnit.SECONDS), err.get(30, TimeUnit.SECONDS));
    } finally {
      p.destroyForcibly(); // on every path, a timeout of this test included
    }
  }

  private static CompletableFuture<String> read(java.io.InputStream s) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        },
        r -> Thread.ofVirtual().start(r));
  }
}
