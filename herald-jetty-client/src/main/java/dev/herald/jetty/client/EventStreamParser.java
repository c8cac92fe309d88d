package dev.herald.jetty.client;

import dev.herald.transport.TransportException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads {@code text/event-stream} bytes as they arrive, in chunks of any size (the HTML Living
 * Standard's event stream interpretation): lines end with CRLF, LF or CR; {@code data} lines are
 * joined with LF; {@code event}, {@code id} (ignored when it holds NUL) and {@code retry} (digits
 * only) are kept; comments are skipped; a blank line dispatches an event with data. An event
 * longer than the limit fails with {@link TransportException}. Not thread-safe: one stream, one
 * reader at a time.
 */
final class EventStreamParser {
  /** Receives each event with data; {@code data} is valid only during the call. */
  interface Events {
    void event(String type, byte[] data, int length);
  }

  private final Events events;
  private final int limit;
  private byte[] line = new byte[256];
  private int lineLength;
  private boolean lastWasCr;
  private byte[] data = new byte[256];
  private int dataLength;
  private boolean hasData;
  private String type = "";
  private String lastEventId;
  private long retryMillis = -1;

  EventStreamParser(Events events, int limit, String lastEventId) {
    this.events = events;
    this.limit = limit;
    this.lastEventId = lastEventId;
  }

  String lastEventId() {
    return lastEventId;
  }

  /** The last {@code retry:} value, or -1. */
  long retryMillis() {
    return retryMillis;
  }

  void feed(ByteBuffer chunk) {
    while (chunk.hasRemaining()) {
      byte b = chunk.get();
      if (b == '\n') {
        if (lastWasCr) {
          lastWasCr = false;
          continue; // the LF of a CRLF
        }
        endLine();
      } else if (b == '\r') {
        lastWasCr = true;
        endLine();
      } else {
        lastWasCr = false;
        if (lineLength == line.length) {
          if (lineLength >= limit) {
            throw tooLarge();
          }
          line = Arrays.copyOf(line, Math.min(limit, line.length * 2));
        }
        line[lineLength++] = b;
      }
    }
  }

  private TransportException tooLarge() {
    return new TransportException("server-sent event larger than " + limit + " bytes");
  }

  private void endLine() {
    int n = lineLength;
    lineLength = 0;
    if (n == 0) {
      dispatch();
      return;
    }
    if (line[0] == ':') {
      return; // a comment
    }
    int colon = -1;
    for (int i = 0; i < n; i++) {
      if (line[i] == ':') {
        colon = i;
        break;
      }
    }
    String field = new String(line, 0, colon < 0 ? n : colon, StandardCharsets.UTF_8);
    int from = colon < 0 ? n : colon + 1;
    if (from < n && line[from] == ' ') {
      from++;
    }
    switch (field) {
      case "data" -> {
        int add = n - from + (hasData ? 1 : 0);
        if ((long) dataLength + add > limit) {
          throw tooLarge();
        }
        if (dataLength + add > data.length) {
          data = Arrays.copyOf(data, Math.min(limit, Math.max(dataLength + add, data.length * 2)));
        }
        if (hasData) {
          data[dataLength++] = '\n';
        }
        System.arraycopy(line, from, data, dataLength, n - from);
        dataLength += n - from;
        hasData = true;
      }
      case "event" -> type = new String(line, from, n - from, StandardCharsets.UTF_8);
      case "id" -> {
        String id = new String(line, from, n - from, StandardCharsets.UTF_8);
        if (id.indexOf('\0') < 0) {
          lastEventId = id;
        }
      }
      case "retry" -> {
        long v = 0;
        boolean digits = from < n && n - from <= 12;
        for (int i = from; i < n && digits; i++) {
          digits = line[i] >= '0' && line[i] <= '9';
          v = v * 10 + (line[i] - '0');
        }
        if (digits) {
          retryMillis = v;
        }
      }
      default -> {}
    }
  }

  private void dispatch() {
    if (hasData) {
      String t = type.isEmpty() ? "message" : type;
      int len = dataLength;
      dataLength = 0;
      hasData = false;
      type = "";
      events.event(t, data, len); // read at once: the array is reused for the next event
    } else {
      type = "";
    }
  }
}
