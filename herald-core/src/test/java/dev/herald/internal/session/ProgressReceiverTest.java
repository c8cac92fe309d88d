package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.session.ProgressListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The receiver's side of progress (docs/notifications.md, "The receiver's rules"): ownership
 * first, movement second, presentation third.
 */
@Timeout(10)
class ProgressReceiverTest {

  /** A listener that keeps every render it is given. */
  static final class Renders implements ProgressListener {
    final List<ProgressUpdate> seen = new CopyOnWriteArrayList<>();

    @Override
    public void onProgress(ProgressUpdate update) {
      seen.add(update);
    }

    List<Double> values() {
      return seen.stream().map(ProgressUpdate::progress).toList();
    }

    ProgressUpdate lastSeen() {
      return seen.get(seen.size() - 1);
    }
  }

  private static CallOptions everyUpdateTo(Renders renders) {
    return CallOptions.builder().progress(renders).renderInterval(Duration.ZERO).build();
  }

  private static String result(Object id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
  }

  // ------------------------------------------------------------------ ownership

  @Test
  void anUpdateAfterCompletionIsLateAndANeverIssuedTokenIsUnknown() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      OutboundCall call = e.engine.request("tools/call", null, everyUpdateTo(renders), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));
      e.inject(result(call.id()));
      get(call.result());

      e.inject(progressFrame(token, "1", ""));
      e.inject(progressFrame(ProgressTokens.random(), "1", ""));
      e.inject(progressFrame(ProgressToken.of(12345), "1", ""));
      await(
          () ->
              e.events.progressUpdatesRefused(ProgressRejection.LATE) == 1
                  && e.events.progressUpdatesRefused(ProgressRejection.UNKNOWN) == 2,
          "all three are refused");

      assertThat(renders.seen).isEmpty();
      assertThat(call.progressRecord().orElseThrow().accepted()).isZero();
      assertThat(call.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.RESPONSE);
      assertThat(e.engine.activeProgressTokens()).isZero();
    }
  }

  @Test
  void theRegistryTellsLateFromUnknownAndForgetsTheOldestTombstones() {
    ManualClock clock = new ManualClock();
    ProgressRegistry registry = new ProgressRegistry();
    List<ProgressRejection> verdicts =
        new ArrayList<>(); // what the session reports to its listener
    ProgressTracker first = tracker(ProgressToken.of("first"), new Renders(), Duration.ZERO, clock);
    registry.register(first);
    registry.close(first, ProgressRecord.Terminal.CANCELLED);

    assertThat(
            tally(
                verdicts,
                registry.onProgress(
                    ProgressNotificationParams.of(ProgressToken.of("first"), 1, null, null))))
        .contains(ProgressRejection.LATE);
    assertThat(
            tally(
                verdicts,
                registry.onProgress(
                    ProgressNotificationParams.of(ProgressToken.of("other"), 1, null, null))))
        .contains(ProgressRejection.UNKNOWN);

    for (int i = 0; i < ProgressRegistry.TOMBSTONES; i++) {
      ProgressTracker t = tracker(ProgressToken.of(i), new Renders(), Duration.ZERO, clock);
      registry.register(t);
      registry.close(t, ProgressRecord.Terminal.RESPONSE);
    }
    assertThat(
            tally(
                verdicts,
                registry.onProgress(
                    ProgressNotificationParams.of(ProgressToken.of("first"), 2, null, null))))
        .as("the oldest tombstone is gone, so the token is simply unknown")
        .contains(ProgressRejection.UNKNOWN);
    assertThat(
            tally(
                verdicts,
                registry.onProgress(
                    ProgressNotificationParams.of(
                        ProgressToken.of(ProgressRegistry.TOMBSTONES - 1), 2, null, null))))
        .contains(ProgressRejection.LATE);
    assertThat(verdicts).filteredOn(v -> v == ProgressRejection.LATE).hasSize(2);
    assertThat(verdicts).filteredOn(v -> v == ProgressRejection.UNKNOWN).hasSize(2);
    assertThat(registry.activeCount()).isZero();
  }

  private static Optional<ProgressRejection> tally(
      List<ProgressRejection> verdicts, Optional<ProgressRejection> verdict) {
    verdict.ifPresent(verdicts::add);
    return verdict;
  }

  @Test
  void updatesAreNeverAttachedToAnotherCall() {
    CountDownLatch bothStarted = new CountDownLatch(2);
    try (EnginePair p =
        new EnginePair(
            call -> {
              int base = call.params().get("base").asInt();
              bothStarted.countDown();
              block(bothStarted);
              for (int i = 1; i <= 3; i++) {
                call.progress().report(base + i);
              }
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      Renders a = new Renders();
      Renders b = new Renders();
      OutboundCall callA =
          p.client.request("tools/call", object("{\"base\":0}"), everyUpdateTo(a), null);
      OutboundCall callB =
          p.client.request("tools/call", object("{\"base\":100}"), everyUpdateTo(b), null);
      get(callA.result());
      get(callB.result());

      assertThat(a.values()).containsExactly(1.0, 2.0, 3.0);
      assertThat(b.values()).containsExactly(101.0, 102.0, 103.0);
      assertThat(p.clientEvents.progressUpdatesRefused(ProgressRejection.UNKNOWN)).isZero();
      assertThat(p.clientEvents.progressUpdatesRefused(ProgressRejection.LATE)).isZero();
    }
  }

  // ------------------------------------------------------------------ movement

  @Test
  void equalRegressingNonFiniteAndNonPositiveTotalsAreRefusedAndRecorded() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      OutboundCall call = e.engine.request("tools/call", null, everyUpdateTo(renders), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      e.inject(progressFrame(token, "5", ""));
      e.inject(progressFrame(token, "5", ""));
      e.inject(progressFrame(token, "4.5", ""));
      e.inject(progressFrame(token, "1e400", ""));
      e.inject(progressFrame(token, "6", ",\"total\":1e400"));
      e.inject(progressFrame(token, "6", ",\"total\":0"));
      e.inject(progressFrame(token, "7", ""));
      await(
          () -> call.progressRecord().orElseThrow().accepted() == 2,
          "the valid updates are accepted");
      await(() -> renders.seen.size() == 2, "they are rendered");

      ProgressRecord record = call.progressRecord().orElseThrow();
      assertThat(record.rejected())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  ProgressRejection.NOT_INCREASING, 2L,
                  ProgressRejection.NON_FINITE, 2L,
                  ProgressRejection.INVALID_TOTAL, 1L));
      assertThat(record.rendered()).isEqualTo(2);
      assertThat(record.lastProgress()).isEqualTo(7.0);
      assertThat(record.totalKnown()).isFalse();
      assertThat(record.terminal()).isNull();
      assertThat(record.tokenHash()).doesNotContain(token.toString().replace("\"", ""));
      assertThat(renders.values()).containsExactly(5.0, 7.0);

      e.inject(result(call.id()));
      get(call.result());
      assertThat(call.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.RESPONSE);
    }
  }

  @Test
  void aMissingTotalIsNeverInvented() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      OutboundCall call = e.engine.request("tools/call", null, everyUpdateTo(renders), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      e.inject(progressFrame(token, "3", ""));
      await(() -> renders.seen.size() == 1, "the update is rendered");
      ProgressUpdate indeterminate = renders.lastSeen();
      assertThat(indeterminate.total()).isNull();
      assertThat(indeterminate.determinate()).isFalse();
      assertThat(indeterminate.fraction()).isEmpty();
      assertThat(call.progressRecord().orElseThrow().totalKnown()).isFalse();

      e.inject(progressFrame(token, "4", ",\"total\":10"));
      await(() -> renders.seen.size() == 2, "the second is rendered");
      assertThat(renders.lastSeen().total()).isEqualTo(10.0);
      assertThat(renders.lastSeen().fraction()).hasValue(0.4);
      assertThat(call.progressRecord().orElseThrow().totalKnown()).isTrue();

      e.inject(progressFrame(token, "5", ""));
      await(() -> renders.seen.size() == 3, "the third is rendered");
      assertThat(renders.lastSeen().total())
          .as("an update without a total does not keep an old one")
          .isNull();
      call.cancel("done");
    }
  }

  // ------------------------------------------------------------------ presentation

  @Test
  void messagesAreSanitizedAsPlainText() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      OutboundCall call = e.engine.request("tools/call", null, everyUpdateTo(renders), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      String hostile =
          "\\u001b[31mdanger\\u001b[0m\\tzone \\u0000\\u0007\\u202eevil \\u001b]8;;http://x\\u0007link\\u001b]8;;\\u0007";
      e.inject(progressFrame(token, "1", ",\"message\":\"" + hostile + "\""));
      e.inject(progressFrame(token, "2", ",\"message\":\"" + "x".repeat(5000) + "\""));
      await(() -> renders.seen.size() == 2, "both are rendered");

      assertThat(renders.seen.get(0).message()).isEqualTo("danger zone evil link");
      assertThat(renders.seen.get(1).message()).hasSize(MessageSanitizer.MAX_LENGTH).endsWith("…");
      call.cancel("done");
    }
  }

  @Test
  void theSanitizerStripsEscapeSequencesNotJustTheEscapeCharacter() {
    assertThat(MessageSanitizer.sanitize("\u001b[1;31mbold red\u001b[0m")).isEqualTo("bold red");
    assertThat(MessageSanitizer.sanitize("\u009b31mC1 form\u009b0m")).isEqualTo("C1 form");
    assertThat(MessageSanitizer.sanitize("a\u001b]0;window title\u001b\\b")).isEqualTo("ab");
    assertThat(MessageSanitizer.sanitize("keep [31m as typed")).isEqualTo("keep [31m as typed");
    assertThat(MessageSanitizer.sanitize("line\r\nbreak\u2028and\u00a0space"))
        .isEqualTo("line break and space");
    assertThat(MessageSanitizer.sanitize("tail escape\u001b")).isEqualTo("tail escape");
    assertThat(MessageSanitizer.sanitize(null)).isNull();
  }

  // ------------------------------------------------------------------ completion

  @Test
  void progressEqualToTotalDoesNotCompleteTheCall() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      OutboundCall call = e.engine.request("tools/call", null, everyUpdateTo(renders), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      e.inject(progressFrame(token, "10", ",\"total\":10"));
      await(() -> renders.seen.size() == 1, "the update is rendered");
      assertThat(renders.lastSeen().fraction()).hasValue(1.0);
      assertThat(call.result()).isNotDone();
      assertThat(e.engine.pendingCount()).isEqualTo(1);
      assertThat(e.engine.activeProgressTokens()).isEqualTo(1);

      e.inject(result(call.id()));
      get(call.result());
      assertThat(e.engine.pendingCount()).isZero();
      assertThat(e.engine.activeProgressTokens()).isZero();
    }
  }

  @Test
  void theFinalValueIsRenderedBeforeTheResultIsDelivered() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      Renders renders = new Renders();
      CallOptions slowCadence =
          CallOptions.builder().progress(renders).renderInterval(Duration.ofHours(1)).build();
      OutboundCall call = e.engine.request("tools/call", null, slowCadence, null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));
      List<List<Double>> atCompletion = new CopyOnWriteArrayList<>();
      call.result().thenRun(() -> atCompletion.add(renders.values()));

      e.inject(progressFrame(token, "1", ""));
      e.inject(progressFrame(token, "2", ""));
      e.inject(progressFrame(token, "3", ""));
      e.inject(result(call.id()));
      get(call.result());

      await(() -> atCompletion.size() == 1, "the completion callback ran");
      assertThat(atCompletion.get(0)).containsExactly(1.0, 3.0);
      assertThat(renders.lastSeen().last()).isTrue();
      assertThat(renders.seen.get(0).last()).isFalse();
      ProgressRecord record = call.progressRecord().orElseThrow();
      assertThat(record.accepted()).isEqualTo(3);
      assertThat(record.rendered()).isEqualTo(2);
    }
  }

  // ------------------------------------------------------------------ tokens

  @Test
  void generatedTokensAre128BitRandomHexStringsAndUnique() {
    Set<ProgressToken> tokens = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      ProgressToken t = ProgressTokens.random();
      assertThat(t)
          .isInstanceOfSatisfying(
              ProgressToken.Text.class, s -> assertThat(s.value()).matches("[0-9a-f]{32}"));
      tokens.add(t);
    }
    assertThat(tokens).hasSize(10_000);

    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      e.engine.request("a", null, everyUpdateTo(new Renders()), null);
      e.engine.request("b", null, everyUpdateTo(new Renders()), null);
      ProgressToken a = tokenOf(onlyRequest(e.end(), "a"));
      ProgressToken b = tokenOf(onlyRequest(e.end(), "b"));
      assertThat(
              onlyRequest(e.end(), "a").get("params").get("_meta").get("progressToken").isString())
          .isTrue();
      assertThat(((ProgressToken.Text) a).value()).matches("[0-9a-f]{32}");
      assertThat(a).isNotEqualTo(b);
    }
  }

  // ------------------------------------------------------------------ cadence (direct,
  // ManualClock)

  /** 10,000 valid updates over 10 s, rendered at a 100 ms cadence, keep update 10,000 visible. */
  @Test
  void tenThousandUpdatesOverTenSecondsRenderAboutOneHundredAndOneFrames() {
    ManualClock clock = new ManualClock();
    Renders renders = new Renders();
    ProgressTracker tracker =
        tracker(ProgressToken.of("seed"), renders, Duration.ofMillis(100), clock);

    for (int i = 1; i <= 10_000; i++) {
      clock.advanceMillis(1);
      assertThat(
              tracker.accept(
                  ProgressNotificationParams.of(ProgressToken.of("seed"), i, 10_000.0, null)))
          .isEmpty();
    }
    tracker.close(ProgressRecord.Terminal.RESPONSE);

    assertThat(renders.seen.size()).isBetween(100, 102);
    assertThat(renders.lastSeen().progress()).isEqualTo(10_000.0);
    assertThat(renders.lastSeen().last()).isTrue();
    assertThat(renders.lastSeen().acceptedCount()).isEqualTo(10_000);
    assertThat(renders.seen.subList(0, renders.seen.size() - 1)).noneMatch(ProgressUpdate::last);
    assertThat(renders.values()).isSorted();
    ProgressRecord record = tracker.record();
    assertThat(record.accepted()).isEqualTo(10_000);
    assertThat(record.rendered()).isEqualTo(renders.seen.size());
    assertThat(record.rejectedTotal()).isZero();
    assertThat(record.terminal()).isEqualTo(ProgressRecord.Terminal.RESPONSE);
    assertThat(record.elapsed()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aQuietSenderStillGetsItsNewestValueRenderedAtTheNextCadenceTick() {
    ManualClock clock = new ManualClock();
    Renders renders = new Renders();
    ProgressToken token = ProgressToken.of("quiet");
    ProgressTracker tracker = tracker(token, renders, Duration.ofMillis(100), clock);

    tracker.accept(ProgressNotificationParams.of(token, 1, null, "one"));
    clock.advanceMillis(10);
    tracker.accept(ProgressNotificationParams.of(token, 2, null, "two"));
    clock.advanceMillis(10);
    tracker.accept(ProgressNotificationParams.of(token, 3, null, null));
    assertThat(renders.values()).containsExactly(1.0);

    clock.advanceMillis(79);
    assertThat(renders.values()).containsExactly(1.0);
    clock.advanceMillis(1);
    assertThat(renders.values()).containsExactly(1.0, 3.0);
    assertThat(renders.lastSeen().message())
        .as("the message of an update without one is kept")
        .isEqualTo("two");
    assertThat(renders.lastSeen().last()).isFalse();

    tracker.close(ProgressRecord.Terminal.CANCELLED);
    assertThat(renders.seen).as("nothing pending, so no extra final render").hasSize(2);
    assertThat(tracker.close(ProgressRecord.Terminal.RESPONSE)).isFalse();
    assertThat(tracker.record().terminal()).isEqualTo(ProgressRecord.Terminal.CANCELLED);
    assertThat(tracker.accept(ProgressNotificationParams.of(token, 4, null, null)))
        .contains(ProgressRejection.LATE);
  }

  private static ProgressTracker tracker(
      ProgressToken token, ProgressListener listener, Duration cadence, ManualClock clock) {
    return new ProgressTracker(token, listener, cadence, clock, clock, Runnable::run, at -> {});
  }
}
