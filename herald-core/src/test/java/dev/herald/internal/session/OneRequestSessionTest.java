package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ErrorCodes;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A session of one request ({@link SessionEngine#endAfterOneRequest}, a 2026-07-28 HTTP POST's):
 * it ends by itself once that request is answered or refused, after the answer went out, on the
 * thread that sent it.
 */
@Timeout(30)
class OneRequestSessionTest {

  @Test
  void itEndsOnTheThreadThatAnsweredAfterTheAnswerWasSent() {
    AtomicReference<Thread> handlerThread = new AtomicReference<>();
    AtomicReference<Thread> closingThread = new AtomicReference<>();
    AtomicInteger answersWhenClosed = new AtomicInteger(-1);
    try (OneEngine e =
        new OneEngine(call -> {
          handlerThread.set(Thread.currentThread());
          return object("{\"ok\":true}");
        })) {
      e.engine.onClose(() -> {
        closingThread.set(Thread.currentThread());
        answersWhenClosed.set(responses(e.end()).size());
      });
      e.engine.endAfterOneRequest();
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");

      get(e.engine.closed());
      assertThat(e.engine.isOpen()).isFalse();
      assertThat(closingThread.get()).isNotNull().isSameAs(handlerThread.get());
      assertThat(answersWhenClosed.get()).isEqualTo(1);
      assertThat(responses(e.end()))
          .singleElement()
          .satisfies(r -> assertThat(r.get("result").get("ok").asBoolean()).isTrue());
      assertThat(e.engine.inFlightCount()).isZero();
    }
  }

  @Test
  void aRefusedRequestEndsItAfterTheRefusal() {
    try (OneEngine e = new OneEngine(call -> object("{}"))) {
      AtomicInteger answersWhenClosed = new AtomicInteger(-1);
      e.engine.onClose(() -> answersWhenClosed.set(responses(e.end()).size()));
      e.engine.endAfterOneRequest();
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"echo\",\"params\":{\"_meta\":1}}");

      get(e.engine.closed());
      assertThat(answersWhenClosed.get()).isEqualTo(1);
      assertThat(responses(e.end()))
          .singleElement()
          .satisfies(r -> {
            assertThat(r.get("id").asInt()).isEqualTo(7);
            assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.INVALID_PARAMS);
          });
    }
  }

  @Test
  void aCancelledRequestEndsItWhenItsHandlerReturnsWithoutAnAnswer() {
    CountDownLatch entered = new CountDownLatch(1);
    try (OneEngine e =
        new OneEngine(call -> {
          entered.countDown();
          try {
            new CountDownLatch(1).await(); // until interrupted by the cancellation
          } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
          }
          return object("{}");
        })) {
      e.engine.endAfterOneRequest();
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"slow\"}");
      await(entered, "the handler runs");
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}");

      get(e.engine.closed());
      assertThat(responses(e.end())).isEmpty();
    }
  }

  @Test
  void anOrdinarySessionStaysOpenAfterItsAnswers() {
    try (OneEngine e = new OneEngine(call -> object("{}"))) {
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\"}");
      await(() -> responses(e.end()).size() == 2, "both are answered");
      await(() -> e.engine.inFlightCount() == 0, "both handlers are done");

      assertThat(e.engine.isOpen()).isTrue();
      assertThat(e.engine.closed()).isNotDone();
    }
  }
}
