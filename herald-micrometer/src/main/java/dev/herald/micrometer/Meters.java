package dev.herald.micrometer;

import dev.herald.session.EventListener.DropReason;
import dev.herald.session.EventListener.Family;
import dev.herald.session.EventListener.GateReason;
import dev.herald.session.EventListener.Outcome;
import dev.herald.session.EventListener.StreamKind;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpMethods;
import dev.herald.wire.TaskStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Design note. The meters of one role (server or client) in one registry. Each meter is made on
 * its first use and kept in a table indexed by its tags' enum ordinals (or, for the request
 * timers, a small map keyed by method, outcome and error class), so a callback after the first
 * does one array read and one increment. Tag values come only from closed sets: the MCP
 * methods in {@link #METHODS} (anything else is {@code other}), Herald's enums, and {@link
 * #errorClass}. The registry itself de-duplicates meters with the same id, so two threads that
 * make the same meter at once get the same one.
 *
 * <p>Thread-safe.
 */
final class Meters {
  /** The request methods of the MCP specification (both eras, both roles) used as tag values. */
  static final List<String> METHODS =
      List.of(
          McpMethods.INITIALIZE,
          McpMethods.PING,
          McpMethods.SERVER_DISCOVER,
          McpMethods.TOOLS_LIST,
          McpMethods.TOOLS_CALL,
          McpMethods.RESOURCES_LIST,
          McpMethods.RESOURCES_TEMPLATES_LIST,
          McpMethods.RESOURCES_READ,
          McpMethods.RESOURCES_SUBSCRIBE,
          McpMethods.RESOURCES_UNSUBSCRIBE,
          McpMethods.PROMPTS_LIST,
          McpMethods.PROMPTS_GET,
          McpMethods.COMPLETION_COMPLETE,
          McpMethods.LOGGING_SET_LEVEL,
          McpMethods.SAMPLING_CREATE_MESSAGE,
          McpMethods.ELICITATION_CREATE,
          McpMethods.ROOTS_LIST,
          McpMethods.TASKS_GET,
          McpMethods.TASKS_RESULT,
          McpMethods.TASKS_CANCEL,
          McpMethods.TASKS_LIST,
          McpMethods.TASKS_UPDATE,
          McpMethods.SUBSCRIPTIONS_LISTEN);

  private static final Map<String, Integer> METHOD_INDEX = methodIndex();

  /** The tag value of the methods not in {@link #METHODS}. */
  static final String OTHER = "other";

  private static final int[] KNOWN_CODES = {
    ErrorCodes.PARSE_ERROR,
    ErrorCodes.INVALID_REQUEST,
    ErrorCodes.METHOD_NOT_FOUND,
    ErrorCodes.INVALID_PARAMS,
    ErrorCodes.INTERNAL_ERROR,
    ErrorCodes.RESOURCE_NOT_FOUND,
    ErrorCodes.URL_ELICITATION_REQUIRED,
    ErrorCodes.HEADER_MISMATCH,
    ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
    ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
    ErrorCodes.LIMIT_EXCEEDED,
    ErrorCodes.REQUEST_CANCELLED
  };

  /** Which stream counter. */
  enum StreamEvent {
    OPENED("herald.streams.opened", "SSE streams started (a POST switched to SSE, or a GET)"),
    RESUMED("herald.streams.resumed", "GETs with Last-Event-ID that resumed a stream"),
    CLOSED("herald.streams.closed", "Connections that carried a stream and ended"),
    SLOW_READER_CLOSES(
        "herald.streams.slow_reader_closes",
        "Stream connections closed because the reader fell behind");

    final String meter;
    final String description;

    StreamEvent(String meter, String description) {
      this.meter = meter;
      this.description = description;
    }
  }

  private final MeterRegistry registry;
  private final Tags tags;

  private final AtomicLong open = new AtomicLong();
  private final AtomicLong active = new AtomicLong();
  private final AtomicLong runningTasks = new AtomicLong();
  private final Counter opened;
  private final Counter closedNormally;
  private final Counter closedByError;

  private final ConcurrentHashMap<Long, Timer> requestTimers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Counter> refused = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> invalid = new ConcurrentHashMap<>();
  private final AtomicReferenceArray<Counter> sent = table(Family.values().length);
  private final AtomicReferenceArray<Counter> gated =
      table(Family.values().length * GateReason.values().length);
  private final AtomicReferenceArray<Counter> dropped =
      table(Family.values().length * DropReason.values().length);
  private final AtomicReferenceArray<Counter> progressRefused =
      table(ProgressRejection.values().length);
  private final AtomicReferenceArray<Counter> reportsRefused =
      table(ProgressRejection.values().length);
  private final AtomicReferenceArray<Counter> streams =
      table(StreamEvent.values().length * StreamKind.values().length);
  private final AtomicReferenceArray<Counter> taskStatuses = table(TaskStatus.values().length);
  private final Counter progressAccepted;
  private final Counter responsesIgnored;

  Meters(MeterRegistry registry, Tags tags) {
    this.registry = registry;
    this.tags = tags;
    Gauge.builder("herald.sessions.open", open, AtomicLong::get)
        .description("Sessions open now")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    Gauge.builder("herald.requests.active", active, AtomicLong::get)
        .description("Requests from the peer whose handler runs now")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    Gauge.builder("herald.tasks.running", runningTasks, AtomicLong::get)
        .description("Tasks created by this side's sessions that are not terminal yet")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    this.opened = counter("herald.sessions.opened", "Sessions opened", Tags.empty());
    this.closedNormally =
        counter("herald.sessions.closed", "Sessions closed", Tags.of("cause", "normal"));
    this.closedByError =
        counter("herald.sessions.closed", "Sessions closed", Tags.of("cause", "error"));
    this.progressAccepted =
        counter(
            "herald.progress.accepted",
            "Received progress notifications accepted by their call",
            Tags.empty());
    this.responsesIgnored =
        counter(
            "herald.responses.ignored", "Responses that matched no pending request", Tags.empty());
  }

  private static AtomicReferenceArray<Counter> table(int size) {
    return new AtomicReferenceArray<>(size);
  }

  private static Map<String, Integer> methodIndex() {
    Map<String, Integer> m = new java.util.HashMap<>();
    for (int i = 0; i < METHODS.size(); i++) {
      m.put(METHODS.get(i), i);
    }
    return Map.copyOf(m);
  }

  /** The method's tag value: itself when the MCP specification defines it, else {@code other}. */
  static String method(String method) {
    return METHOD_INDEX.containsKey(method) ? method : OTHER;
  }

  private static int methodIndex(String method) {
    Integer i = METHOD_INDEX.get(method);
    return i == null ? METHODS.size() : i;
  }

  /**
   * The error tag of a JSON-RPC error code: the code itself for JSON-RPC's and the MCP
   * specification's own codes, {@code reserved} for another code in JSON-RPC's reserved range
   * (-32768 to -32000), {@code application} for any other, {@code none} for 0.
   */
  static String errorClass(int code) {
    if (code == 0) {
      return "none";
    }
    for (int known : KNOWN_CODES) {
      if (known == code) {
        return Integer.toString(code);
      }
    }
    return code >= -32768 && code <= -32000 ? "reserved" : "application";
  }

  private Counter counter(String name, String description, Tags extra) {
    return Counter.builder(name).description(description).tags(tags).tags(extra).register(registry);
  }

  private static Counter cached(
      AtomicReferenceArray<Counter> table, int index, IntFunction<Counter> make) {
    Counter c = table.get(index);
    if (c == null) {
      c = make.apply(index);
      table.set(index, c); // the registry returns the same counter to a racing maker
    }
    return c;
  }

  private static String tag(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  // ---------------------------------------------------------------- sessions

  void sessionOpened() {
    open.incrementAndGet();
    opened.increment();
  }

  void sessionClosed(boolean byError) {
    open.decrementAndGet();
    (byError ? closedByError : closedNormally).increment();
  }

  // ---------------------------------------------------------------- requests

  void requestStarted() {
    active.incrementAndGet();
  }

  void requestEnded(String method, Duration elapsed, Outcome outcome, int errorCode) {
    active.decrementAndGet();
    String error = outcome == Outcome.ERROR ? errorClass(errorCode) : "none";
    long key =
        ((long) methodIndex(method) << 40)
            | ((long) outcome.ordinal() << 32)
            | (outcome == Outcome.ERROR ? (errorCode & 0xffffffffL) : 0L);
    Timer timer = requestTimers.get(key);
    if (timer == null) {
      timer =
          requestTimers.computeIfAbsent(
              key,
              k ->
                  Timer.builder("herald.requests")
                      .description("Requests from the peer, from their start to their end")
                      .tags(tags)
                      .tag("method", method(method))
                      .tag("outcome", tag(outcome))
                      .tag("error", error)
                      .register(registry));
    }
    timer.record(elapsed);
  }

  void requestRefused(String method, int errorCode) {
    long key = ((long) methodIndex(method) << 32) | (errorCode & 0xffffffffL);
    refused
        .computeIfAbsent(
            key,
            k ->
                counter(
                    "herald.requests.refused",
                    "Requests answered with an error before any handler ran",
                    Tags.of("method", method(method), "error", errorClass(errorCode))))
        .increment();
  }

  void responseIgnored() {
    responsesIgnored.increment();
  }

  void invalidMessage(int errorCode) {
    String error = errorClass(errorCode);
    invalid
        .computeIfAbsent(
            error,
            e ->
                counter(
                    "herald.messages.invalid",
                    "Messages that were not valid JSON-RPC, refused",
                    Tags.of("error", e)))
        .increment();
  }

  // ---------------------------------------------------------------- notifications

  void notificationSent(Family family) {
    cached(
            sent,
            family.ordinal(),
            i ->
                counter(
                    "herald.notifications.sent",
                    "Notifications handed to the transport",
                    Tags.of("family", tag(family))))
        .increment();
  }

  void notificationGated(Family family, GateReason reason) {
    cached(
            gated,
            family.ordinal() * GateReason.values().length + reason.ordinal(),
            i ->
                counter(
                    "herald.notifications.gated",
                    "Notifications held back because the peer may not receive them now",
                    Tags.of("family", tag(family), "reason", tag(reason))))
        .increment();
  }

  void notificationDropped(Family family, DropReason reason) {
    cached(
            dropped,
            family.ordinal() * DropReason.values().length + reason.ordinal(),
            i ->
                counter(
                    "herald.notifications.dropped",
                    "Notifications not sent (outbound) or not acted on (inbound)",
                    Tags.of("family", tag(family), "reason", tag(reason))))
        .increment();
  }

  // ---------------------------------------------------------------- progress

  void progressAccepted() {
    progressAccepted.increment();
  }

  void progressRefused(ProgressRejection reason) {
    cached(
            progressRefused,
            reason.ordinal(),
            i ->
                counter(
                    "herald.progress.refused",
                    "Received progress notifications refused",
                    Tags.of("reason", tag(reason))))
        .increment();
  }

  void progressReportRefused(ProgressRejection reason) {
    cached(
            reportsRefused,
            reason.ordinal(),
            i ->
                counter(
                    "herald.progress.reports.refused",
                    "Progress reports of this side's handlers refused by their emitter",
                    Tags.of("reason", tag(reason))))
        .increment();
  }

  // ---------------------------------------------------------------- streams

  void stream(StreamEvent event, StreamKind kind) {
    cached(
            streams,
            event.ordinal() * StreamKind.values().length + kind.ordinal(),
            i -> counter(event.meter, event.description, Tags.of("kind", tag(kind))))
        .increment();
  }

  // ---------------------------------------------------------------- tasks

  void taskStatus(TaskStatus status) {
    cached(
            taskStatuses,
            status.ordinal(),
            i ->
                counter(
                    "herald.tasks.status",
                    "Statuses tasks entered (working when created)",
                    Tags.of("status", status.wire())))
        .increment();
  }

  void taskStarted() {
    runningTasks.incrementAndGet();
  }

  void taskEnded() {
    runningTasks.decrementAndGet();
  }
}
