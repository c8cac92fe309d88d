package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import dev.herald.testing.RawHttpClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code herald serve --max-sessions-per-client} and {@code --max-sessions}: the limits a node
 * behind a load balancer needs raised (every client then has the balancer's address), in a real
 * {@code herald serve --port 0} process.
 */
@Timeout(90)
class ServeSessionLimitsIT {
  private static final String INITIALIZE =
      "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
          + "'capabilities':{},'clientInfo':{'name':'limits','version':'1'}}}";

  @Test
  void aClientBeyondItsSessionLimitIsRefusedWith429AndAnotherSessionStillOpensAfterOneEnds()
      throws Exception {
    Process server =
        new ProcessBuilder(
                HeraldJar.command(
                    List.of(), "serve", "--port", "0", "--max-sessions-per-client", "2"))
            .start();
    try {
      URI uri = serving(server);
      RawHttpClient first = new RawHttpClient(uri);
      first.initialize();
      new RawHttpClient(uri).initialize();

      HttpResponse<Stream<String>> third = new RawHttpClient(uri).post(INITIALIZE);
      assertThat(third.statusCode()).isEqualTo(429);
      assertThat(RawHttpClient.body(third)).contains("-32000");

      HttpResponse<String> deleted =
          first.sendForString(first.request().DELETE()); // gives its slot back
      assertThat(deleted.statusCode()).isEqualTo(200);
      HttpResponse<Stream<String>> again = new RawHttpClient(uri).post(INITIALIZE);
      assertThat(again.statusCode()).isEqualTo(200);
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aLimitBelowOneIsAUsageErrorNamingTheOption() throws Exception {
    Process server =
        new ProcessBuilder(
                HeraldJar.command(List.of(), "serve", "--port", "0", "--max-sessions", "0"))
            .redirectErrorStream(true)
            .start();
    String out = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isEqualTo(2);
    assertThat(out).contains("--max-sessions").contains("at least 1");
  }

  private static URI serving(Process server) throws Exception {
    BufferedReader err =
        new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
    String line = err.readLine();
    assertThat(line).contains("serving the demo fixture on http://127.0.0.1:");
    Thread.ofVirtual().start(() -> err.lines().forEach(l -> System.err.println("[serve] " + l)));
    return URI.create(line.substring(line.indexOf("http://"), line.indexOf(" (legacy")));
  }
}
