package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener;
import dev.herald.session.ProgressListener;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/** The sender's side of progress: only with a token, scoped to the session, increasing, coalesced, closed. */
@Timeout(10)
class ProgressSenderTest {

  private static final CallOptions WITH_PROGRESS =
      CallOptions.builder().progress(ProgressListener.NONE).build();

  @Test
  void withoutATokenNothingIsRequestedOrSent() {
    AtomicReference<String> saw = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(call -> {
          ProgressReporter r = call.progress();
          saw.set(
              "requested="
                  + r.requested()
                  + " report="
                  + r.report(1)
                  + " percent="
                  + r.percent(1, 2, null));
          return object("{}");
        })) {
      get(p.client.request("tools/call", null).result());

      assertThat(saw.get()).isEqualTo("requested=false report=false percent=false");
      assertThat(withMethod(p.serverEnd(), "notifications/progress")).isEmpty();
    }
  }

  @Test
  void anOutgoingMessageIsCleanedOfControlsAndCappedLikeTheReceiverCapsIt() {
    String nasty =
        "step \u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\r\u009b2J\u202e"
            + "x".repeat(1000);
    try (EnginePair p =
        new EnginePair(
            call -> {
              call.progress().report(1, 4.0, nasty);
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      get(p.client.request("tools/call", null, WITH_PROGRESS, null).result());

      String sent =
          withMethod(p.serverEnd(), "notifications/progress")
              .get(0)
              .get("params")
              .get("message")
              .asString();
      assertThat(sent)
          .startsWith("step red link")
          .hasSize(MessageSanitizer.MAX_LENGTH)
          .endsWith("x…");
      assertThat(sent.chars().noneMatch(c -> Character.isISOControl(c) || c == 0x202e)).isTrue();
    }
  }

  @Test
  void withATokenProgressGoesOnTheWireWithThatToken() {
    AtomicReference<ProgressToken> token = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(
            call -> {
              token.set(ProgressToken.fromJson(call.meta().get("progressToken")));
              call.progress().report(1, 4.0, "first");
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      get(p.client.request("tools/call", null, WITH_PROGRESS, null).result());

      assertThat(withMethod(p.serverEnd(), "notifications/progress"))
          .singleElement()
          .satisfies(n -> {
            JsonNode params = n.get("params");
            assertThat(ProgressToken.fromJson(params.get("progressToken"))).isEqualTo(token.get());
            assertThat(params.get("progress").asDouble()).isEqualTo(1.0);
            assertThat(params.get("total").asDouble()).isEqualTo(4.0);
            assertThat(params.get("message").asString()).isEqualTo("first");
          });
    }
  }

  @Test
  void aSecondActiveRequestWithTheSameTokenInTheSameSessionIsRefused() {
    CountDownLatch release = new CountDownLatch(1);
    List<RequestId> handled = new CopyOnWriteArrayList<>();
    RequestHandler handler =
        call -> {
          handled.add(call.id());
          if (call.method().equals("block")) {
            block(release);
          }
          return object("{\"requested\":" + call.progress().requested() + "}");
        };
    try (OneEngine session = new OneEngine(handler);
        OneEngine other = new OneEngine(handler)) {
      session.inject(withToken("1", "block", "\"tok\""));
      await(() -> session.engine.inFlightCount() == 1, "the first holds the token");

      session.inject(withToken("2", "ping", "\"tok\""));
      await(() -> responses(session.end()).size() == 1, "the second is answered");
      assertThat(responses(session.end()))
          .singleElement()
          .satisfies(r -> {
            assertThat(idOf(r)).isEqualTo(RequestId.of(2));
            assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.INVALID_PARAMS);
          });

      // the same token in another session belongs to that session alone
      other.inject(withToken("1", "ping", "\"tok\""));
      await(() -> responses(other.end()).size() == 1, "the other session answers");
      assertThat(responses(other.end()).get(0).get("result").get("requested").asBoolean()).isTrue();

      // 7 and "7" are different tokens, even in the same session
      session.inject(withToken("3", "ping", "7"));
      session.inject(withToken("4", "ping", "\"7\""));
      await(() -> responses(session.end()).size() == 3, "both are answered");
      assertThat(responsesTo(session.end(), RequestId.of(3)).get(0).has("result")).isTrue();
      assertThat(responsesTo(session.end(), RequestId.of(4)).get(0).has("result")).isTrue();

      release.countDown();
      await(() -> responsesTo(session.end(), RequestId.of(1)).size() == 1, "the first is answered");
      await(() -> session.engine.inFlightCount() == 0, "the first has ended");
      session.inject(withToken("5", "ping", "\"tok\""));
      await(
          () -> responsesTo(session.end(), RequestId.of(5)).size() == 1,
          "a later request may use the token again");
      assertThat(responsesTo(session.end(), RequestId.of(5)).get(0).has("result")).isTrue();
      assertThat(handled).doesNotContain(RequestId.of(2));
    }
  }

  @Test
  void progressMustStrictlyIncreaseAndBeFinite() {
    List<Boolean> verdicts = new CopyOnWriteArrayList<>();
    try (EnginePair p =
        new EnginePair(
            call -> {
              ProgressReporter r = call.progress();
              verdicts.add(r.report(1));
              verdicts.add(r.report(1)); // equal
              verdicts.add(r.report(0.5)); // regressing
              verdicts.add(r.report(Double.NaN));
              verdicts.add(r.report(Double.POSITIVE_INFINITY));
              verdicts.add(r.report(2, Double.POSITIVE_INFINITY, null)); // non-finite total
              verdicts.add(r.report(2));
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      get(p.client.request("tools/call", null, WITH_PROGRESS, null).result());

      assertThat(verdicts).containsExactly(true, false, false, false, false, false, true);
      assertThat(progressValues(p.serverEnd())).containsExactly(1.0, 2.0);
      assertThat(p.serverEvents.progressReportsRefused()).isEqualTo(5);
    }
  }

  @Test
  void coalescedProgressFlushesTheLastValueBeforeTheResponse() {
    ManualClock clock = new ManualClock();
    CountDownLatch firstHalf = new CountDownLatch(1);
    CountDownLatch goOn = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(
            call -> {
              for (int i = 1; i <= 5; i++) {
                call.progress().report(i);
              }
              firstHalf.countDown();
              block(goOn);
              for (int i = 6; i <= 10; i++) {
                call.progress().report(i);
              }
              return object("{}");
            },
            b -> {},
            b -> b.ticker(clock).scheduler(clock).progressInterval(Duration.ofMillis(100)))) {
      OutboundCall call = p.client.request("tools/call", null, WITH_PROGRESS, null);
      await(firstHalf, "five reports are made");
      assertThat(progressValues(p.serverEnd())).containsExactly(1.0);

      clock.advanceMillis(100); // the cadence's trailing flush sends the newest value only
      assertThat(progressValues(p.serverEnd())).containsExactly(1.0, 5.0);

      goOn.countDown();
      get(call.result());
      List<String> kinds = new ArrayList<>();
      for (JsonNode f : frames(p.serverEnd())) {
        kinds.add(
            f.has("method")
                ? f.get("method").asString() + " " + f.get("params").get("progress").asInt()
                : "response");
      }
      assertThat(kinds)
          .containsExactly(
              "notifications/progress 1",
              "notifications/progress 5",
              "notifications/progress 10",
              "response");
    }
  }

  @Test
  void afterTheResponseReportsAreRefusedAndCounted() {
    AtomicReference<ProgressReporter> kept = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(
            call -> {
              kept.set(call.progress());
              call.progress().report(1);
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      get(p.client.request("tools/call", null, WITH_PROGRESS, null).result());
      await(() -> p.server.inFlightCount() == 0, "the request has ended");

      assertThat(kept.get().report(2)).isFalse();
      assertThat(kept.get().percent(99, 100, null)).isFalse();
      assertThat(p.serverEvents.progressReportsRefused()).isEqualTo(2);
      assertThat(progressValues(p.serverEnd())).containsExactly(1.0);
      assertThat(frames(p.serverEnd()).get(frames(p.serverEnd()).size() - 1).has("result"))
          .isTrue();
    }
  }

  @Test
  void aCancelledRequestSendsNoMoreProgress() {
    ManualClock clock = new ManualClock();
    AtomicReference<ProgressReporter> kept = new AtomicReference<>();
    AtomicReference<Thread> thread = new AtomicReference<>();
    CountDownLatch reported = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(
            call -> {
              thread.set(Thread.currentThread());
              kept.set(call.progress());
              call.progress().report(1);
              call.progress().report(2); // pending behind the cadence
              reported.countDown();
              block(new CountDownLatch(1));
              return object("{}");
            },
            b -> {},
            b -> b.ticker(clock).scheduler(clock).progressInterval(Duration.ofMillis(100)))) {
      OutboundCall call = p.client.request("tools/call", null, WITH_PROGRESS, null);
      await(reported, "two reports are made");
      call.cancel("stop");
      join(thread.get());

      clock.advanceMillis(1000);
      assertThat(kept.get().report(3)).isFalse();
      assertThat(progressValues(p.serverEnd())).containsExactly(1.0);
      assertThat(responses(p.serverEnd())).isEmpty();
    }
  }

  @Test
  void percentModeSendsWholePercentagesOfOneHundredNeverRawCounts() {
    try (EnginePair p =
        new EnginePair(
            call -> {
              for (long i = 0; i <= 1234; i++) {
                call.progress().percent(i, 1234, null);
              }
              return object("{}");
            },
            b -> {},
            b -> b.progressInterval(Duration.ZERO))) {
      get(p.client.request("tools/call", null, WITH_PROGRESS, null).result());

      List<JsonNode> sent = withMethod(p.serverEnd(), "notifications/progress");
      assertThat(sent).hasSize(101);
      assertThat(sent)
          .allSatisfy(n -> {
            JsonNode params = n.get("params");
            assertThat(params.get("total").asDouble()).isEqualTo(100.0);
            double v = params.get("progress").asDouble();
            assertThat(v).isBetween(0.0, 100.0).isEqualTo(Math.rint(v));
          });
      assertThat(progressValues(p.serverEnd())).isSorted().startsWith(0.0).endsWith(100.0);
      assertThat(p.serverEnd().sent()).noneMatch(s -> s.contains("1234"));
    }
  }

  @Test
  void theEmitterClosesOnceFlushingItsPendingValue() {
    ManualClock clock = new ManualClock();
    List<JsonRpcMessage.Notification> out = new ArrayList<>();
    CountingEventListener events = new CountingEventListener();
    ProgressEmitter emitter =
        new ProgressEmitter(
            ProgressToken.of("t"),
            e -> out.add((JsonRpcMessage.Notification) e.message()),
            Duration.ofMillis(100),
            clock,
            clock,
            events);

    assertThat(emitter.requested()).isTrue();
    assertThat(emitter.report(1)).isTrue();
    assertThat(emitter.report(2)).isTrue();
    assertThat(emitter.report(3)).isTrue();
    assertThat(out).hasSize(1);

    emitter.close();
    emitter.close();
    clock.advanceMillis(1000);
    assertThat(out)
        .extracting(n -> n.params().get("progress").asDouble())
        .containsExactly(1.0, 3.0);
    assertThat(emitter.report(4)).isFalse();
    assertThat(events.progressReportsRefused(ProgressRejection.LATE)).isEqualTo(1);
    assertThat(emitter.sentCount()).isEqualTo(2);
  }

  @Test
  void theEmitterAbandonedOnCancelDropsItsPendingValue() {
    ManualClock clock = new ManualClock();
    List<JsonRpcMessage.Notification> out = new ArrayList<>();
    ProgressEmitter emitter =
        new ProgressEmitter(
            ProgressToken.of(1),
            e -> out.add((JsonRpcMessage.Notification) e.message()),
            Duration.ofMillis(100),
            clock,
            clock,
            EventListener.NONE);
    emitter.report(1);
    emitter.report(2);

    emitter.abandon();
    clock.advanceMillis(1000);

    assertThat(out).hasSize(1);
    assertThat(clock.scheduledCount()).isZero();
  }

  @Test
  void percentModeHandlesCountsTooLargeToMultiply() {
    List<JsonRpcMessage.Notification> out = new ArrayList<>();
    ManualClock clock = new ManualClock();
    ProgressEmitter emitter =
        new ProgressEmitter(
            ProgressToken.of("t"),
            e -> out.add((JsonRpcMessage.Notification) e.message()),
            Duration.ZERO,
            clock,
            clock,
            EventListener.NONE);

    assertThat(emitter.percent(Long.MAX_VALUE / 2, Long.MAX_VALUE, null)).isTrue();
    assertThat(emitter.percent(Long.MAX_VALUE, Long.MAX_VALUE, null)).isTrue();

    assertThat(out)
        .extracting(n -> n.params().get("progress").asDouble())
        .containsExactly(49.0, 100.0);
  }

  private static String withToken(String id, String method, String tokenJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\",\"params\":{\"_meta\":{\"progressToken\":"
        + tokenJson
        + "}}}";
  }
}
