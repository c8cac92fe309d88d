package dev.herald.internal.session;

import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import kotlin.Unit;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.CustomScenarioDSLKt;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The receiver's progress registry under concurrency (Lincheck): progress against completion, and
 * one token reused by a second request right after the first ended. Every concurrent history must
 * be explainable by some order of the operations one at a time: an update is applied to the
 * request that owns its token, refused as late once that request ended (its tombstone), and
 * unknown only for a token nobody used.
 *
 * <p>Two requests, {@code a} and {@code b}, carry the same token; each is registered and closed at
 * most once, as the engine does (closed when its response, cancel or timeout arrives).
 */
public class ProgressRegistryConcurrencyTest {
  private static final ProgressToken TOKEN = new ProgressToken.Text("t");
  // built once: the checker then explores the registry's steps, not the parsing of numbers
  private static final ProgressNotificationParams[] UPDATES = {
    null,
    ProgressNotificationParams.of(TOKEN, 1, null, null),
    ProgressNotificationParams.of(TOKEN, 2, null, null),
    ProgressNotificationParams.of(TOKEN, 3, null, null)
  };

  private final ProgressRegistry registry = new ProgressRegistry();
  private final ProgressTracker a = tracker();
  private final ProgressTracker b = tracker();

  private static ProgressTracker tracker() {
    return new ProgressTracker(
        TOKEN,
        update -> {},
        Duration.ZERO,
        () -> 0L,
        (task, delay) -> () -> {},
        Runnable::run,
        acceptedAt -> {});
  }

  // Whether each request was sent. The engine closes only a token it registered, after it did:
  // register and close of one request are kept in that order by a lock of this test's own, which
  // leaves updates free to interleave with both.
  private final ReentrantLock order = new ReentrantLock();
  private boolean aSent;
  private boolean bSent;

  @Operation(runOnce = true)
  public boolean registerA() {
    order.lock();
    try {
      return aSent = register(a);
    } finally {
      order.unlock();
    }
  }

  @Operation(runOnce = true)
  public boolean registerB() {
    order.lock();
    try {
      return bSent = register(b);
    } finally {
      order.unlock();
    }
  }

  @Operation(runOnce = true)
  public void completeA() {
    order.lock();
    try {
      if (aSent) {
        registry.close(a, ProgressRecord.Terminal.RESPONSE);
      }
    } finally {
      order.unlock();
    }
  }

  @Operation(runOnce = true)
  public void cancelB() {
    order.lock();
    try {
      if (bSent) {
        registry.close(b, ProgressRecord.Terminal.CANCELLED);
      }
    } finally {
      order.unlock();
    }
  }

  /** A progress notification arriving on the reader; empty string when accepted. */
  @Operation
  public String progress(@Param(gen = IntGen.class, conf = "1:3") int value) {
    Optional<ProgressRejection> refused = registry.onProgress(UPDATES[value]);
    return refused.map(Enum::name).orElse("");
  }

  private boolean register(ProgressTracker tracker) {
    try {
      registry.register(tracker);
      return true;
    } catch (IllegalStateException e) {
      return false; // the token is still active for the other request
    }
  }

  /**
   * The race Lincheck found: a request ends, then an update for its token arrives while a second
   * request takes the token up. The update was called UNKNOWN (the first look found no owner, the
   * second no tombstone), which no order of the three explains.
   */
  private static ExecutionScenario updateWhileTheTokenIsTakenUpAgain() {
    Class<?> t = ProgressRegistryConcurrencyTest.class;
    return CustomScenarioDSLKt.scenario(s -> {
      s.parallel(p -> {
        p.thread(th -> {
          th.actor(TableChecks.operation(t, "registerA"));
          th.actor(TableChecks.operation(t, "completeA"));
          th.actor(TableChecks.operation(t, "progress", int.class), 1);
          return Unit.INSTANCE;
        });
        p.thread(th -> {
          th.actor(TableChecks.operation(t, "registerB"));
          return Unit.INSTANCE;
        });
        return Unit.INSTANCE;
      });
      return Unit.INSTANCE;
    });
  }

  @Test
  void everyHistoryOfProgressCompletionAndTokenReuseIsLinearizable() {
    TableChecks.check(getClass(), 2, updateWhileTheTokenIsTakenUpAgain());
  }
}
