package dev.herald.jetty.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.transport.TransportException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Jetty transport's event stream reader: the same events however the bytes are cut. */
class EventStreamParserTest {
  private static final String STREAM =
      ": a comment\r\n"
          + "retry: 1500\r\n"
          + "id: 7\r\n"
          + "data: {\"a\":1}\r\n"
          + "\r\n"
          + "event: ping\n"
          + "data: skipped by type\n"
          + "\n"
          + "id: 8\r"
          + "data:first\r"
          + "data: second\r"
          + "\r"
          + "id: bad\0id\n"
          + "data: x\n"
          + "\n"
          + "data: no end";

  private final List<String> events = new ArrayList<>();

  private EventStreamParser parser(int limit) {
    return new EventStreamParser(
        (type, data, length) ->
            events.add(type + "|" + new String(data, 0, length, StandardCharsets.UTF_8)),
        limit,
        "");
  }

  @Test
  void eventsAreTheSameWhateverTheChunkSize() {
    List<String> whole = null;
    for (int chunk = 1; chunk <= STREAM.length(); chunk++) {
      events.clear();
      EventStreamParser p = parser(1024);
      byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < bytes.length; i += chunk) {
        p.feed(ByteBuffer.wrap(bytes, i, Math.min(chunk, bytes.length - i)));
      }
      assertThat(p.lastEventId()).as("chunk %d", chunk).isEqualTo("8");
      assertThat(p.retryMillis()).isEqualTo(1500);
      if (whole == null) {
        whole = List.copyOf(events);
      }
      assertThat(events).as("chunk %d", chunk).isEqualTo(whole);
    }
    assertThat(whole)
        .containsExactly(
            "message|{\"a\":1}", "ping|skipped by type", "message|first\nsecond", "message|x");
  }

  @Test
  void anEventLongerThanTheLimitFails() {
    EventStreamParser p = parser(16);
    assertThatThrownBy(() ->
            p.feed(
                ByteBuffer.wrap(
                    "data: 0123456789\ndata: 0123456789\n\n".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("larger than 16 bytes");
  }
}
