package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.testing.Background;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The head of a standing GET stream (MCP 2025-11-25 basic/transports, "Listening for Messages from
 * the Server": an SSE response, with the session's id), and its keep-alive comments, over a real
 * Jetty server: a stream that was just written to is left alone by the sweep, and gets comments
 * again once it has been quiet for the keep-alive interval.
 */
class StandingStreamHeadTest {
  private Fixture fixture;

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void aStandingGetIsAnsweredWithTheSseHeadAndTheSessionsId() throws Exception {
    fixture = new Fixture();
    Client client = fixture.client();
    client.initialize();
    HttpResponse<Stream<String>> r = client.getResponse(null);
    try (Stream<String> body = r.body()) {
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-cache");
      assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
      assertThat(r.headers().firstValue("Mcp-Session-Id")).hasValue(client.session);
    }
  }

  @Test
  void aQuietStandingStreamGetsKeepAlivesBeforeAndAfterAnEvent() throws Exception {
    fixture = new Fixture(b -> b.sseKeepAlive(Duration.ofMillis(100)));
    Client client = fixture.client();
    client.initialize();
    HttpResponse<Stream<String>> r = client.getResponse(null);
    assertThat(r.statusCode()).isEqualTo(200);
    try (Stream<String> body = r.body()) {
      Iterator<String> lines = body.iterator();
      assertThat(nextMatching(lines, ":")).startsWith(":");
      fixture.addTool("added");
      assertThat(nextMatching(lines, "data:")).contains("notifications/tools/list_changed");
      assertThat(nextMatching(lines, ":")).startsWith(":");
    }
  }

  /** The next line starting with {@code prefix}, read on another thread within a bound. */
  private static String nextMatching(Iterator<String> lines, String prefix) throws Exception {
    return Background.supply(
            () -> {
              while (lines.hasNext()) {
                String l = lines.next();
                if (l.startsWith(prefix)) {
                  return l;
                }
              }
              throw new AssertionError("the stream ended before a line starting with " + prefix);
            })
        .get(30, TimeUnit.SECONDS);
  }
}
