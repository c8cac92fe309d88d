package dev.herald.http;

import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener.StreamKind;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The session's {@link dev.herald.session.EventListener} sees every SSE stream on a real Jetty
 * server: a POST switched to SSE, the standing GET, each resumed with {@code Last-Event-ID}, and
 * the legacy transport's one stream. (A stream closed for a slow reader: {@link
 * BackpressureAndLegacyTest}.)
 */
class StreamEventsTest {
  private final Fixture fixture = new Fixture();
  private final CountingEventListener events = fixture.events;

  @AfterEach
  void close() {
    fixture.close();
  }

  private static void awaitCount(LongSupplier count, long expected, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (count.getAsLong() < expected && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(1_000_000);
    }
    assertThat(count.getAsLong()).as(what).isEqualTo(expected);
  }

  @Test
  void theStandingStreamIsReportedOpenedByAGetAndResumedByAGetWithLastEventId() throws Exception {
    Client client = fixture.client();
    client.initialize();
    awaitCount(events::sessionsOpened, 1, "the session opened");

    String lastSeen;
    try (SseReader get = client.get(null)) {
      get.event(); // priming
      awaitCount(
          () -> events.streamsOpened(StreamKind.STANDING), 1, "the GET opened the standing stream");
      fixture.addTool("one");
      lastSeen = get.event().id();
    }
    fixture.addTool("two"); // sent while no GET is open
    try (SseReader resumed = client.get(lastSeen)) {
      assertThat(describe(resumed.event().json())).isEqualTo("notifications/tools/list_changed");
      awaitCount(
          () -> events.streamsResumed(StreamKind.STANDING),
          1,
          "the GET with Last-Event-ID resumed it");
    }

    assertThat(events.streamsOpened(StreamKind.STANDING))
        .as("resuming opens nothing new")
        .isEqualTo(1);
    assertThat(events.streamsOpened(StreamKind.REQUEST)).isZero();
    assertThat(events.streamsResumed(StreamKind.REQUEST)).isZero();
    assertThat(events.slowReaderCloses()).isZero();
  }

  @Test
  void aRequestsStreamIsReportedOpenedWhenItsPostSwitchesToSseAndResumedByAGetWithLastEventId()
      throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> quiet = client.call(2, "quiet", null);
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(quiet)))).isEqualTo("result 2 ok");
    assertThat(events.streamsOpened(StreamKind.REQUEST))
        .as("a plain JSON answer is no stream")
        .isZero();

    HttpResponse<Stream<String>> chatty = client.call(3, "chatty", "c");
    try (SseReader post = new SseReader(chatty.body())) {
      assertThat(post.rest())
          .extracting(e -> e.priming() ? "<priming>" : describe(e.json()))
          .containsExactly("<priming>", "log working", "progress c 1", "result 3 chatted");
    }
    assertThat(events.streamsOpened(StreamKind.REQUEST)).isEqualTo(1);

    HttpResponse<Stream<String>> polled =
        client.call(4, "reconnect", null); // closes its own stream
    List<Event> before;
    try (SseReader post = new SseReader(polled.body())) {
      before = post.rest();
    }
    assertThat(before).singleElement().satisfies(e -> assertThat(e.priming()).isTrue());
    assertThat(events.streamsOpened(StreamKind.REQUEST)).isEqualTo(2);
    try (SseReader resumed = client.get(before.getFirst().id())) {
      awaitCount(
          () -> events.streamsResumed(StreamKind.REQUEST),
          1,
          "the GET with Last-Event-ID resumed the request's stream");
      fixture.release.countDown();
      assertThat(resumed.rest())
          .extracting(e -> describe(e.json()))
          .containsExactly("result 4 reconnected");
    }
    assertThat(events.streamsOpened(StreamKind.STANDING)).isZero();
    assertThat(events.streamsResumed(StreamKind.STANDING)).isZero();
  }

  @Test
  void theLegacyTransportsOneStreamIsReportedOpened() throws Exception {
    Client client = fixture.client();
    HttpResponse<Stream<String>> sse =
        client.send(
            HttpRequest.newBuilder(fixture.http.legacySseUri())
                .header("Accept", "text/event-stream")
                .GET());
    try (SseReader reader = new SseReader(sse.body())) {
      assertThat(reader.event().type()).isEqualTo("endpoint");
      awaitCount(
          () -> events.streamsOpened(StreamKind.STANDING), 1, "the legacy GET opened its stream");
      assertThat(events.sessionsOpened()).isEqualTo(1);
    }
  }
}
