package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a session engine reports to its {@link EventListener}: two real engines over the in-memory
 * transport, or one engine and a scripted peer, and the events each saw.
 */
@Timeout(30)
class EngineEventsTest {
  private final RecordingEventListener client = new RecordingEventListener();
  private final RecordingEventListener server = new RecordingEventListener();

  private static CallOptions withProgress() {
    return CallOptions.builder().progress(u -> {}).renderInterval(Duration.ZERO).build();
  }

  @Test
  void bothEndsReportTheSessionOpeningAndClosing() {
    EnginePair p =
        new EnginePair(
            call -> object("{}"), b -> b.eventListener(client), b -> b.eventListener(server));
    get(p.client.request("ping", null).result());
    p.close();
    server.awaitEvent("sessionClosed");
    client.awaitEvent("sessionClosed");

    assertThat(client.events()).containsExactly("sessionOpened", "sessionClosed");
    assertThat(server.events())
        .containsExactly(
            "sessionOpened", "requestStarted ping", "requestEnded ping OK", "sessionClosed");
  }

  @Test
  void aNotificationOnAClosedSessionIsReportedDropped() {
    EnginePair p =
        new EnginePair(
            call -> object("{}"), b -> b.eventListener(client), b -> b.eventListener(server));
    p.close();

    assertThatThrownBy(() -> p.client.notify(McpMethods.ROOTS_LIST_CHANGED, null, null))
        .isInstanceOf(dev.herald.transport.TransportException.class);
    assertThat(client.events("dropped"))
        .containsExactly("dropped ROOTS_LIST_CHANGED SESSION_CLOSED");
    assertThat(client.events("sent")).isEmpty();
  }

  @Test
  void aHandledRequestReportsItsStartAndItsEndWithOutcomeAndElapsedTime() {
    ManualClock clock = new ManualClock();
    CountDownLatch blocked = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(
            call -> {
              switch (call.method()) {
                case "work" -> clock.advanceMillis(7);
                case "bad" -> throw McpException.invalidParams("Invalid params: no");
                case "block" -> {
                  blocked.countDown();
                  block(new CountDownLatch(1)); // until cancelled
                }
                default -> throw McpException.methodNotFound(call.method());
              }
              return object("{}");
            },
            b -> b.eventListener(client),
            b -> b.eventListener(server).ticker(clock))) {
      get(p.client.request("work", null).result());
      assertThat(failure(p.client.request("bad", null).result())).isInstanceOf(McpException.class);
      OutboundCall blocking = p.client.request("block", null);
      await(blocked, "the handler runs");
      blocking.cancel("test cancels");
      server.awaitEvent("requestEnded block CANCELLED");

      assertThat(server.events("request"))
          .containsExactly(
              "requestStarted work", "requestEnded work OK",
              "requestStarted bad", "requestEnded bad ERROR " + ErrorCodes.INVALID_PARAMS,
              "requestStarted block", "requestEnded block CANCELLED");
      assertThat(server.elapsed.get(0))
          .as("measured on the session's ticker")
          .isEqualTo(Duration.ofMillis(7));
      assertThat(client.events("sent")).containsExactly("sent CANCELLED");
    }
  }

  @Test
  void requestsRefusedBeforeAnyHandlerRunsAreReportedWithTheirErrorCode() {
    CountDownLatch release = new CountDownLatch(1);
    try (OneEngine e =
        new OneEngine(
            call -> {
              block(release);
              return object("{}");
            },
            b -> b.eventListener(server).maxInFlight(2))) {
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"meta\",\"params\":{\"_meta\":5}}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"token\",\"params\":{\"_meta\":{\"progressToken\":true}}}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"hold\",\"params\":{\"_meta\":{\"progressToken\":\"t\"}}}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"same-token\",\"params\":{\"_meta\":{\"progressToken\":\"t\"}}}");
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"same-id\"}");
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"hold\"}");
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"over-limit\"}");
      server.awaitEvent(ev -> ev.startsWith("requestRefused over-limit"), "the last refusal");
      release.countDown();

      assertThat(server.events("requestRefused"))
          .containsExactly(
              "requestRefused meta " + ErrorCodes.INVALID_PARAMS,
              "requestRefused token " + ErrorCodes.INVALID_PARAMS,
              "requestRefused same-token " + ErrorCodes.INVALID_PARAMS,
              "requestRefused same-id " + ErrorCodes.INVALID_REQUEST,
              "requestRefused over-limit " + ErrorCodes.LIMIT_EXCEEDED);
    }
  }

  @Test
  void invalidMessagesAndResponsesToNoPendingRequestAreReported() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod(), b -> b.eventListener(server))) {
      e.inject("{not json");
      e.inject("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]");
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}");
      server.awaitEvent("responseIgnored 77");

      assertThat(server.events())
          .containsExactly(
              "sessionOpened",
              "invalidMessage " + ErrorCodes.PARSE_ERROR,
              "invalidMessage " + ErrorCodes.INVALID_REQUEST,
              "responseIgnored 77");
    }
  }

  @Test
  void inboundNotificationsThatAreNotActedOnAreDroppedWithTheirReason() {
    try (OneEngine e =
        new OneEngine(
            EnginePair.unknownMethod(),
            b ->
                b.eventListener(server)
                    .onNotification(
                        "notifications/boom",
                        params -> {
                          throw new IllegalStateException("handler bug");
                        }))) {
      e.inject("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/no/such\"}");
      e.inject("{\"jsonrpc\":\"2.0\",\"method\":\"" + McpMethods.TOOLS_LIST_CHANGED + "\"}");
      e.inject("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/boom\"}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"reason\":\"no id\"}}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":999}}");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}");
      server.awaitEvent("dropped PROGRESS MALFORMED");

      assertThat(server.events("dropped"))
          .containsExactly(
              "dropped OTHER UNKNOWN_METHOD",
              "dropped TOOLS_LIST_CHANGED UNKNOWN_METHOD",
              "dropped OTHER HANDLER_FAILED",
              "dropped CANCELLED MALFORMED",
              "dropped CANCELLED NOT_CANCELLABLE",
              "dropped PROGRESS MALFORMED");
    }
  }

  @Test
  void receivedProgressIsAcceptedOrRefusedWithTheSameReasonAsTheCallsRecord() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod(), b -> b.eventListener(client))) {
      OutboundCall call = e.engine.request("tools/call", null, withProgress(), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));
      e.inject(progressFrame(token, "1", ""));
      e.inject(progressFrame(token, "1", ""));
      e.inject(progressFrame(token, "1e400", ""));
      e.inject(progressFrame(token, "2", ",\"total\":0"));
      e.inject(progressFrame(ProgressTokens.random(), "1", ""));
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":" + call.id() + ",\"result\":{}}");
      get(call.result());
      e.inject(progressFrame(token, "3", ""));
      client.awaitEvent("progressRefused LATE");

      assertThat(client.events("progress"))
          .containsExactly(
              "progressAccepted",
              "progressRefused NOT_INCREASING",
              "progressRefused NON_FINITE",
              "progressRefused INVALID_TOTAL",
              "progressRefused UNKNOWN",
              "progressRefused LATE");
      assertThat(call.progressRecord().orElseThrow().rejectedTotal())
          .as("the call's own record agrees")
          .isEqualTo(3);
    }
  }

  @Test
  void theSendersRefusedReportsAreReportedAndOnlyAcceptedValuesAreSent() {
    AtomicReference<ProgressReporter> kept = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(
            call -> {
              ProgressReporter r = call.progress();
              kept.set(r);
              r.report(1);
              r.report(1);
              r.report(Double.NaN);
              r.report(2, 0.0, null);
              r.percent(-1, 10, null);
              r.percent(1, 0, null);
              return object("{}");
            },
            b -> b.eventListener(client),
            b -> b.eventListener(server).progressInterval(Duration.ZERO))) {
      get(p.client.request("work", null, withProgress(), null).result());
      assertThat(kept.get().report(5)).as("after the response").isFalse();

      assertThat(server.events("progressReportRefused"))
          .containsExactly(
              "progressReportRefused NOT_INCREASING",
              "progressReportRefused NON_FINITE",
              "progressReportRefused INVALID_TOTAL",
              "progressReportRefused NOT_INCREASING",
              "progressReportRefused INVALID_TOTAL",
              "progressReportRefused LATE");
      assertThat(server.events("sent")).containsExactly("sent PROGRESS");
      client.awaitEvent("progressAccepted");
    }
  }

  @Test
  void aProgressValueWaitingForItsCadenceIsDroppedWhenItsRequestIsCancelled() {
    CountDownLatch reported = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(
            call -> {
              call.progress().report(1); // sent at once
              call.progress().report(2); // waits for the cadence
              reported.countDown();
              block(new CountDownLatch(1)); // until cancelled
              return object("{}");
            },
            b -> b.eventListener(client),
            b -> b.eventListener(server).progressInterval(Duration.ofHours(1)))) {
      OutboundCall call = p.client.request("work", null, withProgress(), null);
      await(reported, "both values reported");
      call.cancel("test cancels");
      server.awaitEvent("requestEnded work CANCELLED");

      assertThat(server.events())
          .containsSubsequence(
              "requestStarted work",
              "sent PROGRESS",
              "dropped PROGRESS REQUEST_CANCELLED",
              "requestEnded work CANCELLED");
      assertThat(server.events("sent")).containsExactly("sent PROGRESS");
    }
  }

  @Test
  void aListenerThatThrowsNeverReachesTheSession() {
    EventListener broken =
        new EventListener() {
          @Override
          public void requestStarted(String method, RequestId id) {
            throw new IllegalStateException("listener bug");
          }

          @Override
          public void notificationSent(Family family) {
            throw new IllegalStateException("listener bug");
          }
        };
    try (EnginePair p =
        new EnginePair(
            call -> {
              call.progress().report(1);
              return object("{\"ok\":true}");
            },
            b -> {},
            b -> b.eventListener(broken).progressInterval(Duration.ZERO))) {
      assertThat(
              get(p.client.request("work", null, withProgress(), null).result())
                  .get("ok")
                  .asBoolean())
          .isTrue();
      assertThat(p.server.eventListener()).isSameAs(broken);
    }
  }
}
