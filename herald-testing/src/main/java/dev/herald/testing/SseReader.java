package dev.herald.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads SSE events (HTML Living Standard, "Server-sent events", as used by the MCP Streamable HTTP
 * transport) from a line stream on its own virtual thread. A block with a {@code data} field is one
 * event; a block with only {@code retry} is remembered, not an event; comments are skipped.
 */
public final class SseReader implements AutoCloseable {
  /** One SSE event; {@code data} empty for a priming event. */
  public record Event(@Nullable String id, @Nullable String type, String data) {
    /** Whether this is a priming event (an id and no data, sent so that a client can resume). */
    public boolean priming() {
      return data.isEmpty();
    }

    /** The data as JSON (a JSON-RPC message). */
    public JsonNode json() {
      return JsonMapper.shared().readTree(data);
    }
  }

  private static final Event END = new Event(null, null, "<end>");
  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final Stream<String> lines;
  private volatile @Nullable String retry;

  /** Starts reading {@code lines} (for example an {@code HttpResponse} body of lines). */
  public SseReader(Stream<String> lines) {
    this.lines = lines;
    Thread.ofVirtual().name("sse-reader").start(this::run);
  }

  private void run() {
    String id = null;
    String type = null;
    StringBuilder data = null;
    try {
      Iterator<String> it = lines.iterator();
      while (it.hasNext()) {
        String line = it.next();
        if (line.isEmpty()) {
          if (data != null) {
            events.add(new Event(id, type, data.toString()));
          }
          id = null;
          type = null;
          data = null;
        } else if (line.startsWith(":")) {
          // comment (keep-alive)
        } else {
          int colon = line.indexOf(':');
          String field = colon < 0 ? line : line.substring(0, colon);
          String value = colon < 0 ? "" : line.substring(colon + 1);
          if (value.startsWith(" ")) {
            value = value.substring(1);
          }
          switch (field) {
            case "id" -> id = value;
            case "event" -> type = value;
            case "retry" -> retry = value;
            case "data" ->
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            default -> {}
          }
        }
      }
    } catch (RuntimeException e) {
      // the connection went away
    } finally {
      events.add(END);
    }
  }

  /** The next event, failing after {@code timeout}; {@code null} when the stream ended. */
  @SuppressWarnings("ReferenceEquality") // END is a sentinel instance: identity is the question
  public @Nullable Event next(Duration timeout) throws InterruptedException {
    Event e = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (e == null) {
      throw new AssertionError("no SSE event within " + timeout);
    }
    if (e == END) {
      events.add(END);
      return null;
    }
    return e;
  }

  /** The next event, which must exist. */
  public Event event() throws InterruptedException {
    Event e = next(Duration.ofSeconds(10));
    if (e == null) {
      throw new AssertionError("SSE stream ended early");
    }
    return e;
  }

  /** Every event until the stream ends. */
  public List<Event> rest() throws InterruptedException {
    List<Event> all = new ArrayList<>();
    for (Event e; (e = next(Duration.ofSeconds(10))) != null; ) {
      all.add(e);
    }
    return all;
  }

  /** The last {@code retry} field seen, if any. */
  public @Nullable String retry() {
    return retry;
  }

  @Override
  public void close() {
    lines.close();
  }
}
