package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.transport.TransportException;
import dev.herald.wire.Fuzz;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes the client's {@code text/event-stream} parser (HTML standard §9.2.6) with random and
 * mutated streams fed in random chunks: the events never depend on where the chunks were cut, the
 * only failure is {@link TransportException} for an oversized event, the parser never holds more
 * than its limit, and events written by the standard's rules come back as they were written.
 */
class SseParserFuzzTest {
  private static final int LIMIT = 4096;

  record Event(String type, String data, String lastEventId) {}

  /** Well-formed streams with odd but legal content: CR, CRLF, comments, BOM, retry, empty ids. */
  @Provide
  Arbitrary<byte[]> streams() {
    Arbitrary<byte[]> valid = Arbitraries.longs().map(seed -> wellFormed(new Random(seed)).bytes);
    return Arbitraries.oneOf(valid, Fuzz.mutated(valid), Fuzz.randomBytes(512));
  }

  @Property
  void eventsDoNotDependOnHowTheStreamIsChunked(
      @ForAll("streams") byte[] stream, @ForAll long cuts) {
    Outcome whole = Fuzz.bounded(() -> parse(stream, null));
    Outcome chunked = Fuzz.bounded(() -> parse(stream, new Random(cuts)));
    assertThat(chunked).isEqualTo(whole);
  }

  @Property
  void theOnlyFailureIsAnOversizedEvent(@ForAll("streams") byte[] stream, @ForAll long cuts) {
    Outcome out = Fuzz.bounded(() -> parse(stream, new Random(cuts)));
    if (out.failure != null) {
      assertThat(out.failure).startsWith("server-sent event larger than");
    }
    for (Event e : out.events) {
      assertThat(e.data.getBytes(StandardCharsets.UTF_8).length).isLessThan(LIMIT);
    }
  }

  @Property
  void wellFormedEventsComeBackAsWritten(@ForAll long seed, @ForAll long cuts) {
    Written w = wellFormed(new Random(seed));
    Outcome out = Fuzz.bounded(() -> parse(w.bytes, new Random(cuts)));
    assertThat(out.failure).isNull();
    assertThat(out.events).isEqualTo(w.expected);
  }

  @Property
  void aHugeEventFailsWithoutBufferingIt(@ForAll("sizes") int size, @ForAll long cuts) {
    byte[] stream = ("data: " + "x".repeat(size) + "\n\n").getBytes(StandardCharsets.US_ASCII);
    if (size + 1 < LIMIT - 6) {
      assertThat(parse(stream, new Random(cuts)).failure).isNull();
    } else if (size + 1 > LIMIT) {
      SseParser parser = new SseParser((t, d, l, id) -> {}, LIMIT);
      assertThatThrownBy(() -> parser.feed(stream)).isInstanceOf(TransportException.class);
    }
  }

  @Provide
  Arbitrary<Integer> sizes() {
    return Arbitraries.integers()
        .between(0, 3 * LIMIT)
        .edgeCases(e -> e.includeOnly(LIMIT - 8, LIMIT - 2, LIMIT - 1, LIMIT));
  }

  record Outcome(List<Event> events, String lastEventId, long retry, String failure) {}

  /** Parses {@code stream} whole, or in random chunks when {@code cuts} is given. */
  static Outcome parse(byte[] stream, Random cuts) {
    List<Event> events = new ArrayList<>();
    SseParser parser =
        new SseParser(
            (type, data, length, id) ->
                events.add(
                    new Event(type, new String(data, 0, length, StandardCharsets.UTF_8), id)),
            LIMIT);
    String failure = null;
    try {
      if (cuts == null) {
        parser.feed(stream);
      } else {
        int at = 0;
        while (at < stream.length) {
          int n = Math.min(stream.length - at, cuts.nextInt(4) == 0 ? 0 : 1 + cuts.nextInt(40));
          parser.feed(stream, at, n);
          at += n;
        }
      }
      parser.finish();
    } catch (TransportException e) {
      failure = e.getMessage();
    }
    return new Outcome(List.copyOf(events), parser.lastEventId(), parser.retryMillis(), failure);
  }

  record Written(byte[] bytes, List<Event> expected) {}

  /** A stream written by the standard's rules, with the events a reader must see. */
  static Written wellFormed(Random r) {
    StringBuilder s = new StringBuilder();
    List<Event> expected = new ArrayList<>();
    if (r.nextInt(4) == 0) {
      s.append('\uFEFF');
    }
    String lastId = "";
    String[] ends = {"\n", "\r", "\r\n"};
    int events = r.nextInt(5);
    for (int i = 0; i < events; i++) {
      String end = ends[r.nextInt(3)];
      if (r.nextInt(3) == 0) {
        s.append(':').append(line(r)).append(end);
      }
      String type = r.nextBoolean() ? "message" : "e" + r.nextInt(9);
      if (!type.equals("message") || r.nextBoolean()) {
        s.append("event:").append(r.nextBoolean() ? " " : "").append(type).append(end);
      }
      if (r.nextBoolean()) {
        lastId = r.nextInt(3) == 0 ? "" : line(r);
        s.append("id: ").append(lastId).append(end);
      }
      if (r.nextInt(4) == 0) {
        s.append("retry: ").append(r.nextInt(100000)).append(end);
      }
      List<String> lines = new ArrayList<>();
      int n = 1 + r.nextInt(3);
      for (int k = 0; k < n; k++) {
        String l = line(r);
        lines.add(l);
        s.append("data:")
            .append(l.startsWith(" ") || r.nextBoolean() ? " " : "")
            .append(l)
            .append(end);
      }
      s.append(end);
      expected.add(new Event(type, String.join("\n", lines), lastId));
    }
    return new Written(s.toString().getBytes(StandardCharsets.UTF_8), expected);
  }

  private static String line(Random r) {
    String pool = "ab {}\":,0\u00e9\u4e2d\ud83d\ude00 \t";
    StringBuilder s = new StringBuilder();
    int n = r.nextInt(30);
    for (int i = 0; i < n; i++) {
      char c = pool.charAt(r.nextInt(pool.length()));
      if (Character.isHighSurrogate(c)) {
        s.append("\ud83d\ude00");
      } else if (!Character.isLowSurrogate(c)) {
        s.append(c);
      }
    }
    return s.toString();
  }
}
