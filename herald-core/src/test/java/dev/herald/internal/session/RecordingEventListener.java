package dev.herald.internal.session;

import dev.herald.session.EventListener;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Records every event of a session as one line ("sent PROGRESS", "gated MESSAGE BELOW_LEVEL"), in
 * the order Herald reported them, so tests can assert whole sequences.
 */
public final class RecordingEventListener implements EventListener {
  private final CopyOnWriteArrayList<String> events = new CopyOnWriteArrayList<>();

  /** The {@code elapsed} of every {@link #requestEnded}, in order. */
  public final CopyOnWriteArrayList<Duration> elapsed = new CopyOnWriteArrayList<>();

  /** Every event so far. */
  public List<String> events() {
    return List.copyOf(events);
  }

  /** The events so far that start with {@code prefix}. */
  public List<String> events(String prefix) {
    return events.stream().filter(e -> e.startsWith(prefix)).toList();
  }

  /** Waits (bounded) until an event matches. */
  public void awaitEvent(Predicate<String> match, String what) {
    Fixture.await(() -> events.stream().anyMatch(match), what);
  }

  /** Waits (bounded) until {@code event} was reported. */
  public void awaitEvent(String event) {
    awaitEvent(event::equals, event);
  }

  private void add(String event) {
    events.add(event);
  }

  @Override
  public void sessionOpened() {
    add("sessionOpened");
  }

  @Override
  public void sessionClosed(@Nullable Throwable cause) {
    add("sessionClosed");
  }

  @Override
  public void requestStarted(String method, RequestId id) {
    add("requestStarted " + method);
  }

  @Override
  public void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {
    this.elapsed.add(elapsed);
    add(
        "requestEnded "
            + method
            + " "
            + outcome
            + (outcome == Outcome.ERROR ? " " + errorCode : ""));
  }

  @Override
  public void requestRefused(String method, RequestId id, int errorCode) {
    add("requestRefused " + method + " " + errorCode);
  }

  @Override
  public void responseIgnored(RequestId id) {
    add("responseIgnored " + id);
  }

  @Override
  public void invalidMessage(int errorCode) {
    add("invalidMessage " + errorCode);
  }

  @Override
  public void notificationSent(Family family) {
    add("sent " + family);
  }

  @Override
  public void notificationGated(Family family, GateReason reason) {
    add("gated " + family + " " + reason);
  }

  @Override
  public void notificationDropped(Family family, DropReason reason) {
    add("dropped " + family + " " + reason);
  }

  @Override
  public void progressAccepted() {
    add("progressAccepted");
  }

  @Override
  public void progressRefused(ProgressRejection reason) {
    add("progressRefused " + reason);
  }

  @Override
  public void progressReportRefused(ProgressRejection reason) {
    add("progressReportRefused " + reason);
  }

  @Override
  public void streamOpened(StreamKind kind) {
    add("streamOpened " + kind);
  }

  @Override
  public void streamResumed(StreamKind kind) {
    add("streamResumed " + kind);
  }

  @Override
  public void streamClosedForSlowReader(StreamKind kind) {
    add("streamClosedForSlowReader " + kind);
  }
}
