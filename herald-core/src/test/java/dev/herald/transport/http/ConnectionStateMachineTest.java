package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.testing.Background;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.ConnectionState.Closed;
import dev.herald.transport.http.ConnectionState.FallingBack;
import dev.herald.transport.http.ConnectionState.Idle;
import dev.herald.transport.http.ConnectionState.Legacy;
import dev.herald.transport.http.ConnectionState.Modern;
import dev.herald.transport.http.ConnectionState.Probing;
import dev.herald.transport.http.ConnectionState.SessionFacts;
import dev.herald.transport.http.ConnectionState.Standing;
import dev.herald.transport.http.ConnectionState.Streamable;
import dev.herald.transport.http.ConnectionState.Unreachable;
import dev.herald.transport.http.ConnectionState.Unstarted;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client transport's connection states: every allowed move, and the moves that are refused. */
@Timeout(30)
class ConnectionStateMachineTest {
  private static final URI URI_ = URI.create("http://127.0.0.1:1/mcp");
  private static final RequestId INIT = RequestId.of(0);

  private final ConnectionStateMachine machine = new ConnectionStateMachine(URI_);
  private final StreamableHttpClientTransport owner = new StreamableHttpClientTransport(URI_);
  private final LegacySseConnection legacy = new LegacySseConnection(owner, URI_);

  @AfterEach
  void closeOwner() {
    owner.close();
  }

  private void routedStreamable(String sessionId) {
    machine.start();
    assertThat(machine.initializeSending(INIT)).isTrue();
    assertThat(machine.probeAnswered(sessionId)).isTrue();
  }

  private Standing standing() {
    return ((Streamable) machine.state()).standing();
  }

  // ---------------------------------------------------------------- allowed

  @Test
  void initializeProbesAndItsAnswerRoutesToStreamableWithTheIssuedSession() {
    assertThat(machine.state()).isEqualTo(new Unstarted());
    machine.start();
    assertThat(machine.state()).isEqualTo(new Idle());
    assertThat(machine.initializeSending(INIT)).isTrue();
    assertThat(machine.state()).isEqualTo(new Probing(INIT));
    assertThat(machine.probeAnswered("s-1")).isTrue();
    assertThat(machine.state())
        .isEqualTo(new Streamable(new SessionFacts("s-1", null, INIT), Standing.UNREQUESTED));
    assertThat(machine.awaitRoute()).isEqualTo(machine.state());
  }

  @Test
  void aFirstMessageOtherThanInitializeRoutesStraightToStreamable() {
    machine.start();
    machine.messageSending();
    assertThat(machine.state())
        .isEqualTo(new Streamable(SessionFacts.none(), Standing.UNREQUESTED));
    machine.messageSending();
    assertThat(machine.state())
        .isEqualTo(new Streamable(SessionFacts.none(), Standing.UNREQUESTED));
  }

  @Test
  void theInitializeResultTeachesTheProtocolVersionOnce() {
    routedStreamable("s-1");
    machine.initializeAnswered(RequestId.of(7), "2025-06-18");
    assertThat(machine.session().protocolVersion()).as("another request's result").isNull();
    machine.initializeAnswered(INIT, "2025-11-25");
    assertThat(machine.session()).isEqualTo(new SessionFacts("s-1", "2025-11-25", null));
    machine.initializeAnswered(INIT, "2025-06-18");
    assertThat(machine.session().protocolVersion()).isEqualTo("2025-11-25");
  }

  @Test
  void aLaterInitializeIsNoProbeButItsResultIsLearnedFrom() {
    routedStreamable("s-1");
    RequestId again = RequestId.of(9);
    assertThat(machine.initializeSending(again)).isFalse();
    assertThat(machine.session().initializeId()).isEqualTo(again);
    machine.initializeAnswered(again, "2025-11-25");
    assertThat(machine.session().protocolVersion()).isEqualTo("2025-11-25");
  }

  @Test
  void theStandingStreamIsAwaitedThenOpenedOnceThenSettled() {
    routedStreamable("s-1");
    machine.awaitStanding(Duration.ofSeconds(5)); // nothing to wait for before initialized
    machine.initializedSending(true);
    assertThat(standing()).isEqualTo(Standing.AWAITED);
    assertThat(machine.initializedAccepted()).as("the caller opens the GET").isTrue();
    assertThat(standing()).isEqualTo(Standing.OPENING);
    machine.standingSettled();
    assertThat(standing()).isEqualTo(Standing.SETTLED);
    assertThat(machine.initializedAccepted()).as("never a second GET").isFalse();
    machine.initializedSending(true);
    assertThat(standing()).isEqualTo(Standing.SETTLED);
  }

  @Test
  void aStandingStreamTurnedOffIsSettledAtOnceAndNeverOpened() {
    routedStreamable("s-1");
    machine.initializedSending(false);
    assertThat(standing()).isEqualTo(Standing.SETTLED);
    assertThat(machine.initializedAccepted()).isFalse();
  }

  @Test
  void sendersStopWaitingOnceAndTheStandingStreamMayStillOpenLate() {
    routedStreamable("s-1");
    machine.initializedSending(true);
    machine.awaitStanding(Duration.ZERO);
    assertThat(standing()).isEqualTo(Standing.WAIVED);
    assertThat(machine.initializedAccepted()).as("opened late").isTrue();
    assertThat(standing()).isEqualTo(Standing.SETTLED);
  }

  @Test
  void aWaitThatRunsOutWhileTheGetIsOutSettlesTheStandingStream() {
    routedStreamable("s-1");
    machine.initializedSending(true);
    assertThat(machine.initializedAccepted()).isTrue();
    machine.awaitStanding(Duration.ZERO);
    assertThat(standing()).isEqualTo(Standing.SETTLED);
  }

  @Test
  void aSenderWaitingForTheStandingStreamGoesOnWhenItSettles() throws Exception {
    routedStreamable("s-1");
    machine.initializedSending(true);
    assertThat(machine.initializedAccepted()).isTrue();
    CompletableFuture<Void> sender =
        Background.run(() -> machine.awaitStanding(Duration.ofSeconds(30)));
    machine.standingSettled();
    sender.get(10, TimeUnit.SECONDS);
    assertThat(standing()).isEqualTo(Standing.SETTLED);
  }

  @Test
  void aRefusedProbeFallsBackAndOtherSendersWaitUntilInitializeWasPostedAgain() throws Exception {
    machine.start();
    machine.initializeSending(INIT);
    assertThat(machine.fallingBack(legacy)).isTrue();
    assertThat(machine.state())
        .isEqualTo(new FallingBack(legacy, new SessionFacts(null, null, INIT)));
    CompletableFuture<ConnectionState> sender = Background.supply(machine::awaitRoute);
    machine.initializeAnswered(INIT, "2025-06-18");
    assertThat(sender).isNotDone();
    machine.fellBack();
    assertThat(sender.get(10, TimeUnit.SECONDS))
        .isEqualTo(new Legacy(legacy, new SessionFacts(null, "2025-06-18", null)));
  }

  @Test
  void senderWaitingForTheProbeGoesOnWhenItIsAnswered() throws Exception {
    machine.start();
    machine.initializeSending(INIT);
    CompletableFuture<ConnectionState> sender = Background.supply(machine::awaitRoute);
    machine.probeAnswered(null);
    assertThat(sender.get(10, TimeUnit.SECONDS)).isInstanceOf(Streamable.class);
  }

  @Test
  void aProbeThatCouldNotBeSentFailsEveryLaterSenderWithItsFailureEvenAfterClose() {
    machine.start();
    machine.initializeSending(INIT);
    TransportException unreachable =
        new TransportException("cannot reach " + URI_ + ": connection refused");
    machine.probeUnreachable(unreachable);
    assertThat(machine.state()).isEqualTo(new Unreachable(unreachable));
    assertThatThrownBy(machine::awaitRoute).isSameAs(unreachable);
    assertThat(machine.close(null)).isEqualTo(new Unreachable(unreachable));
    assertThatThrownBy(machine::awaitRoute).isSameAs(unreachable);
  }

  @Test
  void aFailureDuringTheProbeIsWhatWaitingSendersGet() {
    machine.start();
    machine.initializeSending(INIT);
    TransportException failure = new TransportException("no endpoint event");
    assertThat(machine.close(failure)).isEqualTo(new Probing(INIT));
    assertThatThrownBy(machine::awaitRoute).isSameAs(failure);
  }

  @Test
  void closingRemembersTheLastStateSoItsSessionIdGoesOnTheDelete() {
    routedStreamable("s-1");
    ConnectionState last = machine.state();
    assertThat(machine.close(null)).isEqualTo(last);
    assertThat(machine.state()).isEqualTo(new Closed(last, null));
    assertThat(machine.isClosed()).isTrue();
    assertThat(machine.session().id()).isEqualTo("s-1");
    assertThatThrownBy(machine::awaitRoute)
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("is closed");
  }

  // ---------------------------------------------------------------- refused or ignored

  @Test
  void closingTwiceReportsOnlyTheFirst() {
    machine.start();
    assertThat(machine.close(null)).isEqualTo(new Idle());
    assertThat(machine.close(new TransportException("late"))).isNull();
    assertThat(machine.state()).isEqualTo(new Closed(new Idle(), null));
  }

  @Test
  void eventsRacingWithCloseAreIgnored() {
    machine.start();
    machine.initializeSending(INIT);
    machine.close(null);
    ConnectionState closed = machine.state();
    assertThat(machine.probeAnswered("s-1")).isFalse();
    assertThat(machine.fallingBack(legacy)).isFalse();
    machine.fellBack();
    machine.standingSettled();
    machine.initializedSending(true);
    assertThat(machine.initializedAccepted()).isFalse();
    assertThat(machine.state()).isSameAs(closed);
  }

  @Test
  void theModernBindingMayBeChosenBeforeOrAfterStartAndLeftForTheHandshake() {
    machine.modern(ProtocolVersion.V2026_07_28);
    machine.start();
    assertThat(machine.state()).isEqualTo(new Modern(ProtocolVersion.V2026_07_28));
    assertThat(machine.modernState()).isNotNull();
    machine.handshake();
    assertThat(machine.state()).isEqualTo(new Idle());
    assertThat(machine.modernState()).isNull();
    machine.modern(ProtocolVersion.V2026_07_28);
    machine.handshake();
    assertThat(machine.initializeSending(INIT)).as("the initialize after it probes").isTrue();
  }

  @Test
  void theModernBindingIsRefusedOnceTheHandshakeRoutedTheConnection() {
    routedStreamable("s-1");
    assertThatThrownBy(() -> machine.modern(ProtocolVersion.V2026_07_28))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(machine::handshake).isInstanceOf(IllegalStateException.class);
    machine.close(null);
    assertThatThrownBy(() -> machine.modern(ProtocolVersion.V2026_07_28))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nothingLeavesClosed() {
    machine.close(null);
    assertThatThrownBy(machine::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("start");
    assertThatThrownBy(() -> machine.move("reopen", s -> new Idle()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("reopen")
        .hasMessageContaining("Closed");
  }

  @Test
  void startingTwiceIsRefused() {
    machine.start();
    assertThatThrownBy(machine::start).isInstanceOf(IllegalStateException.class);
    assertThat(machine.state()).isEqualTo(new Idle());
  }

  @Test
  void anAnswerToAProbeThatWasNeverSentIsRefused() {
    machine.start();
    assertThatThrownBy(() -> machine.probeAnswered("s-1"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> machine.fallingBack(legacy)).isInstanceOf(IllegalStateException.class);
    assertThat(machine.state()).isEqualTo(new Idle());
  }

  @Test
  void aRoutedConnectionNeverFallsBackOrProbesAgain() {
    routedStreamable("s-1");
    ConnectionState routed = machine.state();
    assertThatThrownBy(() -> machine.fallingBack(legacy)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> machine.move("probe again", s -> new Probing(INIT)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(machine.state()).isSameAs(routed);
  }

  @Test
  void theSessionIdNeverChangesOnceRouted() {
    Streamable routed = new Streamable(new SessionFacts("s-1", null, null), Standing.UNREQUESTED);
    assertThat(
            routed.allows(
                new Streamable(new SessionFacts("s-2", null, null), Standing.UNREQUESTED)))
        .isFalse();
    assertThat(
            routed.allows(new Streamable(new SessionFacts(null, null, null), Standing.UNREQUESTED)))
        .isFalse();
    assertThat(
            routed.allows(
                new Streamable(new SessionFacts("s-1", "2025-11-25", null), Standing.UNREQUESTED)))
        .isTrue();
  }

  @Test
  void theStandingStreamOnlyMovesForward() {
    assertThat(Standing.UNREQUESTED.allows(Standing.AWAITED)).isTrue();
    assertThat(Standing.UNREQUESTED.allows(Standing.OPENING)).isFalse();
    assertThat(Standing.AWAITED.allows(Standing.OPENING)).isTrue();
    assertThat(Standing.AWAITED.allows(Standing.WAIVED)).isTrue();
    assertThat(Standing.OPENING.allows(Standing.WAIVED)).isFalse();
    assertThat(Standing.OPENING.allows(Standing.AWAITED)).isFalse();
    assertThat(Standing.WAIVED.allows(Standing.OPENING)).isFalse();
    assertThat(Standing.SETTLED.allows(Standing.AWAITED)).isFalse();
    assertThat(Standing.SETTLED.allows(Standing.OPENING)).isFalse();
  }

  @Test
  void legacyStatesKeepTheirConnectionAndNeverBecomeStreamable() {
    LegacySseConnection other = new LegacySseConnection(owner, URI_);
    Legacy l = new Legacy(legacy, SessionFacts.none());
    assertThat(l.allows(new Legacy(other, SessionFacts.none()))).isFalse();
    assertThat(l.allows(new Streamable(SessionFacts.none(), Standing.UNREQUESTED))).isFalse();
    assertThat(
            new FallingBack(legacy, SessionFacts.none())
                .allows(new Legacy(other, SessionFacts.none())))
        .isFalse();
    assertThat(new Idle().allows(new Legacy(legacy, SessionFacts.none()))).isFalse();
    assertThat(
            new Unreachable(new TransportException("x"))
                .allows(new Streamable(SessionFacts.none(), Standing.UNREQUESTED)))
        .isFalse();
  }
}
