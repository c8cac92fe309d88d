package dev.herald.session;

import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * An {@link EventListener} that counts every event, by kind and reason: Herald's diagnostic
 * counters (what a session dropped, gated or refused) in one place. Give one instance to every
 * session to count server-wide, or one per session:
 *
 * {@snippet :
 * CountingEventListener all = new CountingEventListener();
 * McpServer server = McpServer.builder().eventListener(all).build(); // shared by every session
 * McpServer perSession = McpServer.builder()
 *     .eventListenerFactory(role -> new CountingEventListener()) // read with session.eventListener()
 *     .build();
 * }
 *
 * <p>Thread-safe and lock-free; each callback is one atomic increment.
 */
public final class CountingEventListener implements EventListener {
  private static final int FAMILIES = Family.values().length;
  private static final int GATES = GateReason.values().length;
  private static final int DROPS = DropReason.values().length;
  private static final int REJECTIONS = ProgressRejection.values().length;
  private static final int STREAMS = StreamKind.values().length;

  private final LongAdder sessionsOpened = new LongAdder();
  private final LongAdder sessionsClosed = new LongAdder();
  private final LongAdder requestsStarted = new LongAdder();
  private final AtomicLongArray requestsEnded = new AtomicLongArray(Outcome.values().length);
  private final LongAdder requestsRefused = new LongAdder();
  private final LongAdder responsesIgnored = new LongAdder();
  private final LongAdder invalidMessages = new LongAdder();
  private final AtomicLongArray sent = new AtomicLongArray(FAMILIES);
  private final AtomicLongArray gated = new AtomicLongArray(FAMILIES * GATES);
  private final AtomicLongArray dropped = new AtomicLongArray(FAMILIES * DROPS);
  private final LongAdder progressAccepted = new LongAdder();
  private final AtomicLongArray progressRefused = new AtomicLongArray(REJECTIONS);
  private final AtomicLongArray progressReportsRefused = new AtomicLongArray(REJECTIONS);
  private final AtomicLongArray streamsOpened = new AtomicLongArray(STREAMS);
  private final AtomicLongArray streamsResumed = new AtomicLongArray(STREAMS);
  private final AtomicLongArray slowReaderCloses = new AtomicLongArray(STREAMS);

  /** A listener with every count at zero. */
  public CountingEventListener() {}

  // ---------------------------------------------------------------- callbacks

  @Override
  public void sessionOpened() {
    sessionsOpened.increment();
  }

  @Override
  public void sessionClosed(@Nullable Throwable cause) {
    sessionsClosed.increment();
  }

  @Override
  public void requestStarted(String method, RequestId id) {
    requestsStarted.increment();
  }

  @Override
  public void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {
    requestsEnded.incrementAndGet(outcome.ordinal());
  }

  @Override
  public void requestRefused(String method, RequestId id, int errorCode) {
    requestsRefused.increment();
  }

  @Override
  public void responseIgnored(RequestId id) {
    responsesIgnored.increment();
  }

  @Override
  public void invalidMessage(int errorCode) {
    invalidMessages.increment();
  }

  @Override
  public void notificationSent(Family family) {
    sent.incrementAndGet(family.ordinal());
  }

  @Override
  public void notificationGated(Family family, GateReason reason) {
    gated.incrementAndGet(family.ordinal() * GATES + reason.ordinal());
  }

  @Override
  public void notificationDropped(Family family, DropReason reason) {
    dropped.incrementAndGet(family.ordinal() * DROPS + reason.ordinal());
  }

  @Override
  public void progressAccepted() {
    progressAccepted.increment();
  }

  @Override
  public void progressRefused(ProgressRejection reason) {
    progressRefused.incrementAndGet(reason.ordinal());
  }

  @Override
  public void progressReportRefused(ProgressRejection reason) {
    progressReportsRefused.incrementAndGet(reason.ordinal());
  }

  @Override
  public void streamOpened(StreamKind kind) {
    streamsOpened.incrementAndGet(kind.ordinal());
  }

  @Override
  public void streamResumed(StreamKind kind) {
    streamsResumed.incrementAndGet(kind.ordinal());
  }

  @Override
  public void streamClosedForSlowReader(StreamKind kind) {
    slowReaderCloses.incrementAndGet(kind.ordinal());
  }

  // ---------------------------------------------------------------- counts

  /** Sessions opened. */
  public long sessionsOpened() {
    return sessionsOpened.sum();
  }

  /** Sessions closed. */
  public long sessionsClosed() {
    return sessionsClosed.sum();
  }

  /** Requests from the peer whose handler started. */
  public long requestsStarted() {
    return requestsStarted.sum();
  }

  /** Requests from the peer that ended with {@code outcome}. */
  public long requestsEnded(Outcome outcome) {
    return requestsEnded.get(outcome.ordinal());
  }

  /** Requests from the peer refused before any handler ran. */
  public long requestsRefused() {
    return requestsRefused.sum();
  }

  /** Responses to no pending request (late, or stray). */
  public long responsesIgnored() {
    return responsesIgnored.sum();
  }

  /** Invalid messages received (malformed frames, unsupported batches). */
  public long invalidMessages() {
    return invalidMessages.sum();
  }

  /** Notifications of {@code family} sent. */
  public long sent(Family family) {
    return sent.get(family.ordinal());
  }

  /** Notifications held back by a gate, every family and reason. */
  public long gated() {
    return sum(gated);
  }

  /** Notifications held back for {@code reason}, every family. */
  public long gated(GateReason reason) {
    long n = 0;
    for (int f = 0; f < FAMILIES; f++) {
      n += gated.get(f * GATES + reason.ordinal());
    }
    return n;
  }

  /** Notifications of {@code family} held back, every reason. */
  public long gated(Family family) {
    long n = 0;
    for (int r = 0; r < GATES; r++) {
      n += gated.get(family.ordinal() * GATES + r);
    }
    return n;
  }

  /** Notifications dropped, every family and reason. */
  public long dropped() {
    return sum(dropped);
  }

  /** Notifications dropped for {@code reason}, every family. */
  public long dropped(DropReason reason) {
    long n = 0;
    for (int f = 0; f < FAMILIES; f++) {
      n += dropped.get(f * DROPS + reason.ordinal());
    }
    return n;
  }

  /** Notifications of {@code family} dropped, every reason. */
  public long dropped(Family family) {
    long n = 0;
    for (int r = 0; r < DROPS; r++) {
      n += dropped.get(family.ordinal() * DROPS + r);
    }
    return n;
  }

  /** Notifications of {@code family} dropped for {@code reason}. */
  public long dropped(Family family, DropReason reason) {
    return dropped.get(family.ordinal() * DROPS + reason.ordinal());
  }

  /** Received progress updates accepted. */
  public long progressUpdatesAccepted() {
    return progressAccepted.sum();
  }

  /** Received progress updates refused for {@code reason}. */
  public long progressUpdatesRefused(ProgressRejection reason) {
    return progressRefused.get(reason.ordinal());
  }

  /** Progress reports refused by this side's emitters, every reason. */
  public long progressReportsRefused() {
    return sum(progressReportsRefused);
  }

  /** Progress reports refused by this side's emitters for {@code reason}. */
  public long progressReportsRefused(ProgressRejection reason) {
    return progressReportsRefused.get(reason.ordinal());
  }

  /** Streams of {@code kind} opened. */
  public long streamsOpened(StreamKind kind) {
    return streamsOpened.get(kind.ordinal());
  }

  /** Streams of {@code kind} resumed with {@code Last-Event-ID}. */
  public long streamsResumed(StreamKind kind) {
    return streamsResumed.get(kind.ordinal());
  }

  /** Stream connections closed because their reader fell behind, every kind. */
  public long slowReaderCloses() {
    return sum(slowReaderCloses);
  }

  private static long sum(AtomicLongArray a) {
    long n = 0;
    for (int i = 0; i < a.length(); i++) {
      n += a.get(i);
    }
    return n;
  }

  @Override
  public String toString() {
    return "CountingEventListener[sessions "
        + sessionsOpened()
        + "/"
        + sessionsClosed()
        + ", requests "
        + requestsStarted()
        + ", gated "
        + gated()
        + ", dropped "
        + dropped()
        + ", progress accepted "
        + progressUpdatesAccepted()
        + ", slow-reader closes "
        + slowReaderCloses()
        + "]";
  }
}
