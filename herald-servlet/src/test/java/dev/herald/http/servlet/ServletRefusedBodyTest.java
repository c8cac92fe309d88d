package dev.herald.http.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.RawHttpClient;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Through the servlet adapter too, a body over the limit still on its way gets its whole 413: the
 * rest of the body is read and discarded before the exchange ends, so the connection is not reset
 * under a client that is still sending.
 */
class ServletRefusedBodyTest {

  @Test
  void theJdkClientGetsEvery413ForAChunkedBodyOverTheLimit() throws Exception {
    byte[] big = new byte[5 * 1024 * 1024];
    Arrays.fill(big, (byte) ' ');
    try (ServletFixture fixture = new ServletFixture();
        HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 50; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(fixture.uri())
                    .expectContinue(true)
                    .header("Accept", "application/json, text/event-stream")
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(big)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("attempt %d", i).isEqualTo(413);
        assertThat(RawHttpClient.json(r.body()).get("error").get("message").asString())
            .startsWith("Content Too Large");
      }
    }
  }

  @Test
  void theJdkClientGetsEvery415ForABodyItSendsWithoutWaiting() throws Exception {
    byte[] big = new byte[2 * 1024 * 1024];
    Arrays.fill(big, (byte) ' ');
    try (ServletFixture fixture = new ServletFixture();
        HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 30; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(fixture.uri())
                    .header("Accept", "application/json, text/event-stream")
                    .header("Content-Type", "text/plain")
                    .POST(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(big)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("attempt %d", i).isEqualTo(415);
      }
    }
  }
}
