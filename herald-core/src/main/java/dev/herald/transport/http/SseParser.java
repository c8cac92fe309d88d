package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An incremental {@code text/event-stream} parser following the HTML standard's "Interpreting an
 * event stream" rules (html.spec.whatwg.org, server-sent events §9.2.6), fed raw bytes in chunks of
 * any size.
 *
 * <p>Design note. The parser works on bytes, not characters: CR and LF never occur inside a UTF-8
 * multi-byte sequence, so lines can be split before decoding, and {@code data} is handed to the
 * listener as the undecoded UTF-8 bytes that {@code MessageCodec.decode} reads directly. Field
 * names are compared as bytes; only {@code event} and {@code id} values become strings. The rules:
 *
 * <ul>
 *   <li>one optional UTF-8 BOM at the very start of the stream is dropped (it may span chunks);
 *   <li>lines end with CR, LF or CRLF, and a CR at the end of one chunk followed by an LF at the
 *       start of the next is one line end;
 *   <li>a blank line dispatches; a line starting with {@code :} is a comment; otherwise the field
 *       name runs to the first colon (the whole line when there is none, with an empty value), and
 *       one space after the colon is removed;
 *   <li>{@code data} appends its value and an LF; {@code event} sets the type; {@code id} sets the
 *       last-event-id buffer unless the value contains NUL; {@code retry} sets the reconnection
 *       time when the value is all ASCII digits; other fields are ignored;
 *   <li>on dispatch the stream's last event id becomes the buffer's value (so an event with an id
 *       but no data still moves the resumption cursor); an event whose data buffer is empty is not
 *       delivered; one trailing LF is removed from the data; the type defaults to {@code message};
 *   <li>at end of stream an unfinished event is discarded.
 * </ul>
 *
 * <p>Bounded: a line or an event's data growing past {@code maxEventBytes} fails with {@link
 * TransportException}; the parser never buffers more than that.
 *
 * <p>Not thread-safe: one reader feeds one parser.
 */
final class SseParser {
  /** Receives dispatched events. */
  interface Listener {
    /**
     * One event. {@code data} holds {@code length} bytes of UTF-8 and is valid only during the
     * call. {@code lastEventId} is the stream's last event id after this event ({@code ""} when
     * none was ever set).
     */
    void onEvent(String type, byte[] data, int length, String lastEventId);
  }

  private static final byte CR = '\r';
  private static final byte LF = '\n';
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  private static final byte[] DATA = ascii("data");
  private static final byte[] EVENT = ascii("event");
  private static final byte[] ID = ascii("id");
  private static final byte[] RETRY = ascii("retry");

  private final Listener listener;
  private final int maxEventBytes;

  // All fields: owned by the single reader thread.
  private byte[] line = new byte[256];
  private int lineLength;
  private byte[] data = new byte[256];
  private int dataLength;
  private @Nullable String eventType;
  private String idBuffer = "";
  private String lastEventId = "";
  private long retryMillis = -1;
  private boolean afterCr;
  private int bomMatched; // bytes of the BOM seen so far at the start; -1 once decided
  private boolean finished;

  SseParser(Listener listener, int maxEventBytes) {
    this(listener, maxEventBytes, "");
  }

  /**
   * A parser for a reconnection: {@code lastEventId} is the id the stream had reached, kept until
   * the server sends another (as an EventSource keeps it across reconnections).
   */
  SseParser(Listener listener, int maxEventBytes, String lastEventId) {
    this.listener = Objects.requireNonNull(listener, "listener");
    if (maxEventBytes < 1) {
      throw new IllegalArgumentException("maxEventBytes must be positive, was " + maxEventBytes);
    }
    this.maxEventBytes = maxEventBytes;
    this.idBuffer = Objects.requireNonNull(lastEventId, "lastEventId");
    this.lastEventId = lastEventId;
  }

  /** The stream's last event id ({@code ""} when none), as of the last dispatch. */
  String lastEventId() {
    return lastEventId;
  }

  /** The last valid {@code retry:} value in milliseconds, or -1 when the stream sent none. */
  long retryMillis() {
    return retryMillis;
  }

  /** Feeds all of {@code bytes}. */
  void feed(byte[] bytes) {
    feed(bytes, 0, bytes.length);
  }

  /**
   * Feeds a chunk; complete events are dispatched before this returns.
   *
   * @throws TransportException if a line or an event exceeds the limit
   * @throws IllegalStateException after {@link #finish()}
   */
  void feed(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (finished) {
      throw new IllegalStateException("parser finished");
    }
    int i = offset;
    int end = offset + length;
    if (bomMatched >= 0) {
      while (i < end && bomMatched < BOM.length && bytes[i] == BOM[bomMatched]) {
        bomMatched++;
        i++;
      }
      if (bomMatched == BOM.length) {
        bomMatched = -1;
      } else if (i < end) {
        // Not a BOM after all: the bytes matched so far are ordinary input.
        int matched = bomMatched;
        bomMatched = -1;
        scan(BOM, 0, matched);
      } else {
        return; // the chunk ended inside a possible BOM
      }
    }
    scan(bytes, i, end - i);
  }

  /** The stream ended: an unfinished event is discarded, per the standard. */
  void finish() {
    finished = true;
    lineLength = 0;
    dataLength = 0;
    eventType = null;
  }

  private void scan(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int start = offset;
    for (int i = offset; i < end; i++) {
      byte b = bytes[i];
      if (b != CR && b != LF) {
        continue;
      }
      if (b == LF && afterCr && i == start && lineLength == 0) {
        // The LF of a CRLF whose CR ended the previous line (possibly in the previous chunk).
        afterCr = false;
        start = i + 1;
        continue;
      }
      appendLine(bytes, start, i - start);
      processLine();
      afterCr = b == CR;
      start = i + 1;
    }
    if (start < end) {
      afterCr = false;
      appendLine(bytes, start, end - start);
    }
  }

  private void appendLine(byte[] bytes, int from, int count) {
    if (count == 0) {
      return;
    }
    int needed = lineLength + count;
    if ((long) needed + dataLength > maxEventBytes) {
      throw tooLarge();
    }
    if (needed > line.length) {
      line = Arrays.copyOf(line, Math.min(Math.max(line.length * 2, needed), maxEventBytes));
    }
    System.arraycopy(bytes, from, line, lineLength, count);
    lineLength = needed;
  }

  private void processLine() {
    int len = lineLength;
    lineLength = 0;
    if (len == 0) {
      dispatch();
      return;
    }
    if (line[0] == ':') {
      return; // a comment
    }
    int colon = indexOf(line, len, (byte) ':');
    int nameEnd = colon < 0 ? len : colon;
    int valueStart = colon < 0 ? len : colon + 1;
    if (valueStart < len && line[valueStart] == ' ') {
      valueStart++;
    }
    int valueLength = len - valueStart;
    if (nameIs(DATA, nameEnd)) {
      appendData(line, valueStart, valueLength);
    } else if (nameIs(EVENT, nameEnd)) {
      eventType = new String(line, valueStart, valueLength, StandardCharsets.UTF_8);
    } else if (nameIs(ID, nameEnd)) {
      if (indexOf(line, valueStart, len, (byte) 0) < 0) {
        idBuffer = new String(line, valueStart, valueLength, StandardCharsets.UTF_8);
      }
    } else if (nameIs(RETRY, nameEnd)) {
      long parsed = parseDigits(line, valueStart, len);
      if (parsed >= 0) {
        retryMillis = parsed;
      }
    }
    // Any other field is ignored.
  }

  private void appendData(byte[] src, int from, int count) {
    int needed = dataLength + count + 1;
    if (needed > maxEventBytes) {
      throw tooLarge();
    }
    if (needed > data.length) {
      data = Arrays.copyOf(data, Math.min(Math.max(data.length * 2, needed), maxEventBytes));
    }
    System.arraycopy(src, from, data, dataLength, count);
    data[dataLength + count] = LF;
    dataLength = needed;
  }

  private void dispatch() {
    lastEventId = idBuffer;
    String type = eventType;
    int length = dataLength;
    eventType = null;
    dataLength = 0;
    if (length == 0) {
      return;
    }
    length--; // the data buffer always ends with the LF appended by the last data line
    listener.onEvent(type == null || type.isEmpty() ? "message" : type, data, length, lastEventId);
    if (data.length > 64 * 1024) {
      data = new byte[256]; // give a large buffer back after a large event
    }
  }

  private boolean nameIs(byte[] name, int nameLength) {
    return nameLength == name.length && Arrays.equals(line, 0, nameLength, name, 0, nameLength);
  }

  private static int indexOf(byte[] bytes, int length, byte b) {
    return indexOf(bytes, 0, length, b);
  }

  private static int indexOf(byte[] bytes, int from, int to, byte b) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** The value as a base-ten number, or -1 when it is empty, has a non-digit or overflows. */
  private static long parseDigits(byte[] bytes, int from, int to) {
    if (from >= to) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int d = bytes[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      if (value > (Long.MAX_VALUE - d) / 10) {
        return -1;
      }
      value = value * 10 + d;
    }
    return value;
  }

  private TransportException tooLarge() {
    lineLength = 0;
    dataLength = 0;
    return new TransportException("server-sent event larger than " + maxEventBytes + " bytes");
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
