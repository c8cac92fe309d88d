package dev.herald.internal.session;

import dev.herald.session.ProgressReporter;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.util.concurrent.locks.ReentrantLock;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The in-flight table of requests from the peer under concurrency (Lincheck), driven as the
 * session engine drives it: the reader admits requests and applies the peer's cancellations (one
 * at a time, never in parallel with each other), while handlers end their requests on their own
 * threads. Cancel against response, and an id or a progress token reused against its release:
 * every history must be explainable by the operations one at a time, so a request is answered or
 * cancelled, never both, and an id or token is free again once its request has ended.
 *
 * <p>What the table does not make atomic: a request's token is taken before its id and freed after
 * it, and a request already answering (no longer cancellable) holds its id until its release. A
 * compliant peer sees neither: admissions are on the reader, and the answer is written only once
 * id and token are free, so the peer cannot reuse them earlier. The test therefore makes a
 * release one step for the reader and the observers ({@code releasing}); the cancel against the
 * answer stays free to race.
 */
public class InboundTableConcurrencyTest {
  private final InboundTable table = new InboundTable(2);

  /**
   * Makes a release one step for the reader and the observers, as a compliant peer sees it: it
   * cannot reuse an id or token before the answer, which is written only once both are free. The
   * race checked is the one a peer can cause: its cancel against the handler's answer.
   */
  private final ReentrantLock releasing = new ReentrantLock();

  /** A request arrives with an id and a progress token (0: none); what the engine decides. */
  @Operation(nonParallelGroup = "reader")
  public String arrive(
      @Param(gen = IntGen.class, conf = "1:2") int id,
      @Param(gen = IntGen.class, conf = "0:2") int token) {
    releasing.lock();
    try {
      RequestId requestId = RequestId.of(id);
      InboundTable.Admission admission = table.check(requestId);
      if (admission != InboundTable.Admission.ADMITTED) {
        return admission.name();
      }
      InboundCall call =
          new InboundCall(
              null,
              new JsonRpcMessage.Request(requestId, "tools/call", null),
              ProgressReporter.NONE,
              token == 0 ? null : new ProgressToken.Number(token));
      return table.admit(call).name();
    } finally {
      releasing.unlock();
    }
  }

  /** The peer's notifications/cancelled for an id, as the engine applies it on the reader. */
  @Operation(nonParallelGroup = "reader")
  public boolean cancel(@Param(gen = IntGen.class, conf = "1:2") int id) {
    InboundCall call = table.get(RequestId.of(id));
    if (call == null || !call.tryCancel()) {
      return false;
    }
    release(call);
    return true;
  }

  /**
   * The handler of the request that holds an id returns; true when its response is sent (it won
   * against a cancel). The id and token are released before the response would be written.
   */
  @Operation
  public boolean answer(@Param(gen = IntGen.class, conf = "1:2") int id) {
    InboundCall call = table.get(RequestId.of(id));
    if (call == null) {
      return false;
    }
    boolean won = call.tryComplete();
    release(call);
    return won;
  }

  @Operation
  public boolean tokenHeld(@Param(gen = IntGen.class, conf = "1:2") int token) {
    releasing.lock();
    try {
      return table.tokenHeld(new ProgressToken.Number(token));
    } finally {
      releasing.unlock();
    }
  }

  @Operation
  public int inFlight() {
    releasing.lock();
    try {
      return table.size();
    } finally {
      releasing.unlock();
    }
  }

  /** The engine's release of a request that detached no work. */
  private void release(InboundCall call) {
    releasing.lock();
    try {
      table.releaseId(call);
      table.releaseToken(call);
    } finally {
      releasing.unlock();
    }
  }

  @Test
  void everyHistoryOfCancelResponseAndIdReuseIsLinearizable() {
    TableChecks.check(getClass());
  }
}
