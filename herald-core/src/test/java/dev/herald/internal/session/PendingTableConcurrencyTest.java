package dev.herald.internal.session;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.TimeoutException;
import dev.herald.wire.RequestId;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * The table of this side's pending calls under concurrency (Lincheck): a response arriving on the
 * reader against the caller's cancel and the timer's timeout, and the id taken up by a next call
 * once the first ended. Every concurrent history must be explainable by some order of the
 * operations one at a time: a call ends exactly once (response, cancel or timeout), a response for
 * an ended or unknown id is ignored, and an id is free once its call ended.
 *
 * <p>The operations take the steps of the engine: a response takes its entry then finishes the
 * call ({@code SessionEngine.onResponse}); a cancel or a timeout checks the call, releases its
 * entry, then finishes it ({@code SessionEngine.cancelOutbound}). The engine never reuses an id of
 * its own; the table must still not let a late release of the first call free the second's.
 *
 * <p>What the table does not make atomic (found by this test with an operation asking whether the
 * id is free): an entry leaves before its call ends, so for a moment the id is free (and {@code
 * pendingCount} one less) while the call has not ended yet, and a response that took the entry can
 * still lose the finish to a timeout that had already checked the call. That order is deliberate:
 * the caller sees the outcome only after the entry is gone. It is invisible to the peer (the engine
 * never reuses an id of its own), so only "ended, hence free" is asserted.
 */
public class PendingTableConcurrencyTest {
  private static final RequestId ID = RequestId.of(1);

  private final PendingTable table = new PendingTable();
  private final ProgressRegistry registry = new ProgressRegistry();
  private final PendingCall first = call();
  private final PendingCall second = call();

  public PendingTableConcurrencyTest() {
    table.add(first);
  }

  private static PendingCall call() {
    // no engine: only cancel() and the timer reach it, and the operations below take their steps;
    // callbacks run inline (the engine's SerialExecutor starts a thread the checker would follow)
    return new PendingCall(
        null,
        ID,
        "tools/call",
        null,
        null,
        Runnable::run, // the future completes on the thread that ends the call
        CallOptions.defaults(),
        0L,
        null);
  }

  /**
   * A response with the id arriving on the reader: the call it ended, or IGNORED. Responses are
   * read one at a time by the transport's one reader, so they never race each other.
   */
  @Operation(nonParallelGroup = "reader")
  public String response() {
    PendingCall call = table.take(ID);
    if (call == null
        || !call.finish(ProgressRecord.Terminal.RESPONSE, null, null, registry, null)) {
      return "IGNORED";
    }
    return call == first ? "FIRST" : "SECOND";
  }

  /** The caller cancels the first call: whether the cancel ended it. */
  @Operation(runOnce = true)
  public boolean cancelFirst() {
    return endLocally(
        first, new CancelledException("cancelled"), ProgressRecord.Terminal.CANCELLED);
  }

  /** The first call's timer fires: whether the timeout ended it. */
  @Operation(runOnce = true)
  public boolean timeoutFirst() {
    return endLocally(
        first,
        new TimeoutException(TimeoutException.Clock.ABSOLUTE, "timed out"),
        ProgressRecord.Terminal.TIMEOUT_ABSOLUTE);
  }

  /** The caller cancels the second call, if it was sent. */
  @Operation(runOnce = true)
  public boolean cancelSecond() {
    return endLocally(
        second, new CancelledException("cancelled"), ProgressRecord.Terminal.CANCELLED);
  }

  /**
   * A next call takes the id up once the first call ended: whether the id was free then (an ended
   * call holds no entry), false while the first call is still on.
   */
  @Operation(runOnce = true)
  public boolean reuse() {
    if (!first.isDone()) {
      return false;
    }
    boolean free = table.size() == 0;
    table.add(second);
    return free;
  }

  private boolean endLocally(
      PendingCall call, RuntimeException failure, ProgressRecord.Terminal how) {
    if (call.isDone()) {
      return false;
    }
    table.release(call);
    return call.finish(how, null, failure, registry, null);
  }

  @Test
  void everyHistoryOfResponseCancelTimeoutAndIdReuseIsLinearizable() {
    TableChecks.check(getClass(), 2);
  }
}
