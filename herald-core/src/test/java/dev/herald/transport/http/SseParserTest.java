package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {
  record Event(String type, String data, String id) {}

  private final List<Event> events = new ArrayList<>();
  private SseParser parser = newParser(1024);

  private SseParser newParser(int max) {
    return new SseParser(
        (type, data, length, id) ->
            events.add(new Event(type, new String(data, 0, length, StandardCharsets.UTF_8), id)),
        max);
  }

  private void feed(String s) {
    parser.feed(s.getBytes(StandardCharsets.UTF_8));
  }

  private static Event msg(String data, String id) {
    return new Event("message", data, id);
  }

  @Test
  void oneDataLineMakesOneMessageEvent() {
    feed("data: hello\n\n");
    assertThat(events).containsExactly(msg("hello", ""));
  }

  @Test
  void multiLineDataIsJoinedWithLineFeeds() {
    feed("data: one\ndata: two\ndata:three\n\n");
    assertThat(events).containsExactly(msg("one\ntwo\nthree", ""));
  }

  @Test
  void eventFieldSetsTheTypeForOneEventOnly() {
    feed("event: endpoint\ndata: /post\n\ndata: next\n\n");
    assertThat(events).containsExactly(new Event("endpoint", "/post", ""), msg("next", ""));
  }

  @Test
  void emptyEventFieldMeansMessage() {
    feed("event:\ndata: x\n\n");
    assertThat(events).containsExactly(msg("x", ""));
  }

  @Test
  void eventWithoutDispatchingBlankLineIsNotDelivered() {
    feed("data: pending\n");
    assertThat(events).isEmpty();
    feed("\n");
    assertThat(events).containsExactly(msg("pending", ""));
  }

  @Test
  void idIsTheStreamsLastEventIdAndPersistsAcrossEvents() {
    feed("id: 7\ndata: a\n\ndata: b\n\n");
    assertThat(events).containsExactly(msg("a", "7"), msg("b", "7"));
    assertThat(parser.lastEventId()).isEqualTo("7");
  }

  @Test
  void idTakesEffectOnDispatchNotBefore() {
    feed("id: 3\ndata: x\n");
    assertThat(parser.lastEventId()).isEmpty();
    feed("\n");
    assertThat(parser.lastEventId()).isEqualTo("3");
  }

  @Test
  void idOnAnEventWithNoDataStillMovesTheCursor() {
    feed("id: prime-1\n\n");
    assertThat(events).isEmpty();
    assertThat(parser.lastEventId()).isEqualTo("prime-1");
  }

  @Test
  void primingEventWithEmptyDataFieldIsDispatchedWithEmptyData() {
    // MCP servers prime a stream with an id and an empty data field; the transport skips it.
    feed("id: s1-0\ndata:\n\n");
    assertThat(events).containsExactly(msg("", "s1-0"));
    assertThat(parser.lastEventId()).isEqualTo("s1-0");
  }

  @Test
  void idContainingNulIsIgnored() {
    feed("id: 1\n\nid: a\u0000b\ndata: x\n\n");
    assertThat(events).containsExactly(msg("x", "1"));
    assertThat(parser.lastEventId()).isEqualTo("1");
  }

  @Test
  void emptyIdResetsTheLastEventId() {
    feed("id: 5\ndata: a\n\nid\ndata: b\n\n");
    assertThat(events).containsExactly(msg("a", "5"), msg("b", ""));
    assertThat(parser.lastEventId()).isEmpty();
  }

  @Test
  void eventsWithNoDataAreNotDispatched() {
    feed("event: ping\n\n\n\n: comment\n\n");
    assertThat(events).isEmpty();
  }

  @Test
  void eventTypeDoesNotLeakIntoTheNextEventAfterAnUndispatchedOne() {
    feed("event: ignored\n\ndata: x\n\n");
    assertThat(events).containsExactly(msg("x", ""));
  }

  @Test
  void retryWithDigitsSetsTheReconnectionTime() {
    assertThat(parser.retryMillis()).isEqualTo(-1);
    feed("retry: 2500\n\n");
    assertThat(parser.retryMillis()).isEqualTo(2500);
    feed("retry:0\n\n");
    assertThat(parser.retryMillis()).isZero();
  }

  @Test
  void retryWithAnythingButDigitsIsIgnored() {
    feed("retry: 1000\n");
    feed(
        "retry: 12a\nretry: -5\nretry: 1.5\nretry:\nretry:  30\nretry: 99999999999999999999999\n\n");
    assertThat(parser.retryMillis()).isEqualTo(1000);
  }

  @Test
  void retryAloneDispatchesNothing() {
    feed("retry: 10\n\n");
    assertThat(events).isEmpty();
  }

  @Test
  void commentLinesAreIgnored() {
    feed(": keep-alive\ndata: a\n:another\ndata: b\n\n");
    assertThat(events).containsExactly(msg("a\nb", ""));
  }

  @Test
  void fieldWithoutColonHasEmptyValue() {
    feed("data\ndata\n\n");
    assertThat(events).containsExactly(msg("\n", ""));
  }

  @Test
  void dataWithoutColonAloneDispatchesAnEmptyString() {
    feed("data\n\n");
    assertThat(events).containsExactly(msg("", ""));
  }

  @Test
  void onlyOneSpaceAfterTheColonIsRemoved() {
    feed("data:  two spaces\n\n");
    assertThat(events).containsExactly(msg(" two spaces", ""));
  }

  @Test
  void valueMayContainColons() {
    feed("data: {\"a\":\"b:c\"}\n\n");
    assertThat(events).containsExactly(msg("{\"a\":\"b:c\"}", ""));
  }

  @Test
  void unknownFieldsAreIgnored() {
    feed("foo: bar\ndata: x\nDATA: y\n data: z\n\n");
    assertThat(events).containsExactly(msg("x", ""));
  }

  @Test
  void fieldNamesAreCaseSensitive() {
    feed("Data: x\nEvent: e\nID: 1\n\n");
    assertThat(events).isEmpty();
    assertThat(parser.lastEventId()).isEmpty();
  }

  @Test
  void crLineEndings() {
    feed("data: a\rdata: b\r\rdata: c\r\r");
    assertThat(events).containsExactly(msg("a\nb", ""), msg("c", ""));
  }

  @Test
  void crlfLineEndings() {
    feed("id: 1\r\ndata: a\r\n\r\ndata: b\r\n\r\n");
    assertThat(events).containsExactly(msg("a", "1"), msg("b", "1"));
  }

  @Test
  void mixedLineEndings() {
    feed("data: a\ndata: b\rdata: c\r\n\ndata: d\r\r\n");
    // "\r\r\n" is a CR (ends "data: d") then a CRLF (the blank line).
    assertThat(events).containsExactly(msg("a\nb\nc", ""), msg("d", ""));
  }

  @Test
  void crAtTheEndOfOneChunkAndLfAtTheStartOfTheNextAreOneLineEnd() {
    feed("data: a\r");
    feed("\ndata: b\r");
    feed("\n");
    assertThat(events).isEmpty();
    feed("\r");
    assertThat(events).containsExactly(msg("a\nb", ""));
    feed("\ndata: c\r\n\r\n");
    assertThat(events).containsExactly(msg("a\nb", ""), msg("c", ""));
  }

  @Test
  void crAtChunkEndFollowedByOrdinaryBytesIsStillALineEnd() {
    feed("data: a\r");
    feed("data: b\r");
    feed("\r");
    assertThat(events).containsExactly(msg("a\nb", ""));
  }

  @Test
  void lfAfterAnEmptyCrLineIsNotAnotherBlankLine() {
    feed("data: a\r\r");
    feed("\ndata: b\n\n");
    // "\r\r\n": the first CR ends the data line, the second CR plus the LF is one blank line.
    assertThat(events).containsExactly(msg("a", ""), msg("b", ""));
  }

  @Test
  void leadingBomIsDropped() {
    parser.feed(bytes(0xEF, 0xBB, 0xBF));
    feed("data: x\n\n");
    assertThat(events).containsExactly(msg("x", ""));
  }

  @Test
  void bomSplitAcrossChunksIsDropped() {
    parser.feed(bytes(0xEF));
    parser.feed(bytes(0xBB));
    parser.feed(concat(bytes(0xBF), "data: x\n\n".getBytes(StandardCharsets.UTF_8)));
    assertThat(events).containsExactly(msg("x", ""));
  }

  @Test
  void bomIsOnlyDroppedAtTheStartOfTheStream() {
    feed("data: a\n\n");
    parser.feed(concat(bytes(0xEF, 0xBB, 0xBF), "data: b\n\n".getBytes(StandardCharsets.UTF_8)));
    // The second BOM makes the field name "\uFEFFdata", an unknown field.
    assertThat(events).containsExactly(msg("a", ""));
  }

  @Test
  void partialBomThatIsNotABomIsKeptAsInput() {
    // 0xEF 0xBB 0xBE is U+FEFE, not a BOM: it stays, as the name of an unknown field.
    parser.feed(bytes(0xEF, 0xBB));
    parser.feed(concat(bytes(0xBE), ":v\ndata: y\n\n".getBytes(StandardCharsets.UTF_8)));
    assertThat(events).containsExactly(msg("y", ""));
    SseParser p = newParser(1024);
    p.feed(bytes(0xEF, 0xBB));
    p.feed("ata: z\n\n".getBytes(StandardCharsets.UTF_8)); // the held bytes come back as input
    assertThat(events).containsExactly(msg("y", ""));
  }

  @Test
  void bytesThatStartLikeABomButDivergeAreOrdinaryInput() {
    // "\u00EF" is not a BOM prefix in UTF-8, but 0xEF 0xBB 0x41 would be: test a real divergence.
    parser.feed(concat(bytes(0xEF, 0xBB), "x\ndata: after\n\n".getBytes(StandardCharsets.UTF_8)));
    assertThat(events).containsExactly(msg("after", ""));
  }

  @Test
  void multiByteUtf8SplitAcrossChunksSurvives() {
    byte[] all = "data: h\u00e9llo \u2603 \uD83D\uDE00\n\n".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < all.length; i++) {
      parser.feed(all, i, 1);
    }
    assertThat(events).containsExactly(msg("h\u00e9llo \u2603 \uD83D\uDE00", ""));
  }

  @Test
  void everySplitOfAStreamGivesTheSameEvents() {
    String stream =
        "\uFEFF: hi\r\nid: 1\r\nevent: e\r\ndata: a\r\ndata\r\n\r\nretry: 50\rid: 2\rdata: {\"k\":1}\r\r"
            + "id: 3\n\ndata: last\n\n";
    byte[] all = stream.getBytes(StandardCharsets.UTF_8);
    SseParser whole = newParser(1024);
    whole.feed(all);
    List<Event> expected = List.copyOf(events);
    assertThat(expected)
        .containsExactly(new Event("e", "a\n", "1"), msg("{\"k\":1}", "2"), msg("last", "3"));
    for (int cut1 = 0; cut1 <= all.length; cut1++) {
      for (int cut2 = cut1; cut2 <= all.length; cut2 += 3) {
        events.clear();
        SseParser p = newParser(1024);
        p.feed(all, 0, cut1);
        p.feed(all, cut1, cut2 - cut1);
        p.feed(all, cut2, all.length - cut2);
        assertThat(events).as("cut at %d and %d", cut1, cut2).isEqualTo(expected);
        assertThat(p.lastEventId()).isEqualTo("3");
        assertThat(p.retryMillis()).isEqualTo(50);
      }
    }
  }

  @Test
  void unfinishedEventAtEndOfStreamIsDiscarded() {
    feed("data: done\n\nid: 9\ndata: cut");
    parser.finish();
    assertThat(events).containsExactly(msg("done", ""));
    assertThat(parser.lastEventId()).isEmpty();
  }

  @Test
  void feedingAfterFinishIsMisuse() {
    parser.finish();
    assertThatThrownBy(() -> feed("data: x\n\n")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void manyEventsInOneChunkArriveInOrder() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      sb.append("id: ").append(i).append("\ndata: ").append(i).append("\n\n");
    }
    feed(sb.toString());
    assertThat(events).hasSize(100);
    for (int i = 0; i < 100; i++) {
      assertThat(events.get(i)).isEqualTo(msg(Integer.toString(i), Integer.toString(i)));
    }
  }

  @Test
  void anEventUpToTheLimitIsAccepted() {
    parser = newParser(64);
    String payload = "x".repeat(64 - "data: ".length());
    feed("data: " + payload + "\n\n");
    assertThat(events).containsExactly(msg(payload, ""));
  }

  @Test
  void oneLongLineIsRefusedInsteadOfBuffered() {
    parser = newParser(64);
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 100; i++) {
                feed("data: " + "y".repeat(10));
              }
            })
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("larger than 64 bytes");
    assertThat(events).isEmpty();
  }

  @Test
  void manyDataLinesAddingUpPastTheLimitAreRefused() {
    parser = newParser(64);
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 20; i++) {
                feed("data: 0123456789\n");
              }
            })
        .isInstanceOf(TransportException.class);
    assertThat(events).isEmpty();
  }

  @Test
  void aLongCommentIsRefusedToo() {
    parser = newParser(64);
    assertThatThrownBy(() -> feed(":" + "c".repeat(100) + "\n"))
        .isInstanceOf(TransportException.class);
  }

  @Test
  void theLimitIsPerEventNotPerStream() {
    parser = newParser(64);
    for (int i = 0; i < 1000; i++) {
      feed("data: 0123456789012345678901234567890123456789\n\n");
    }
    assertThat(events).hasSize(1000);
  }

  @Test
  void aReconnectionParserStartsFromTheGivenLastEventId() {
    SseParser resumed =
        new SseParser(
            (type, data, length, id) ->
                events.add(
                    new Event(type, new String(data, 0, length, StandardCharsets.UTF_8), id)),
            1024,
            "41");
    assertThat(resumed.lastEventId()).isEqualTo("41");
    resumed.feed("data: replayed\n\nid: 42\ndata: next\n\n".getBytes(StandardCharsets.UTF_8));
    assertThat(events).containsExactly(msg("replayed", "41"), msg("next", "42"));
  }

  @Test
  void jsonDataIsHandedOverAsUtf8BytesUnchanged() {
    String json = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"\u00fcber\"}}";
    feed("event: message\nid: a\ndata: " + json + "\n\n");
    assertThat(events).containsExactly(msg(json, "a"));
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
