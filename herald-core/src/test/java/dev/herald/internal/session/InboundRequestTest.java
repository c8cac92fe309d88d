package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.session.EventListener;
import dev.herald.transport.TransportException;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/** Inbound requests and notifications: ids, refusals, batches, unknown methods, connection end. */
@Timeout(10)
class InboundRequestTest {

  /** Answers "block" after the latch opens, "ping" at once, anything else with -32601. */
  private static RequestHandler blockingHandler(CountDownLatch release, List<RequestId> seen) {
    return call -> {
      seen.add(call.id());
      return switch (call.method()) {
        case "block" -> {
          block(release);
          yield object("{\"seen\":\"" + call.id().toString().replace("\"", "'") + "\"}");
        }
        case "ping" -> object("{}");
        default -> throw McpException.methodNotFound(call.method());
      };
    };
  }

  private static String request(String id, String method) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"}";
  }

  @Test
  void integerAndStringIdsAreDifferentInFlightRequests() {
    CountDownLatch release = new CountDownLatch(1);
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(release, seen))) {
      e.inject(request("1", "block"));
      e.inject(request("\"1\"", "block"));
      await(() -> e.engine.inFlightCount() == 2, "both requests are in flight");
      release.countDown();
      await(() -> responses(e.end()).size() == 2, "both are answered");

      assertThat(responsesTo(e.end(), RequestId.of(1)))
          .singleElement()
          .satisfies(r -> {
            assertThat(r.get("id").isNumber()).isTrue();
            assertThat(r.get("result").get("seen").asString()).isEqualTo("1");
          });
      assertThat(responsesTo(e.end(), RequestId.of("1")))
          .singleElement()
          .satisfies(r -> {
            assertThat(r.get("id").isString()).isTrue();
            assertThat(r.get("result").get("seen").asString()).isEqualTo("'1'");
          });
      assertThat(e.engine.inFlightCount()).isZero();
    }
  }

  @Test
  void anUnknownRequestMethodIsAnsweredWithMethodNotFoundAndKeepsItsId() {
    try (OneEngine e =
        new OneEngine(blockingHandler(new CountDownLatch(0), new CopyOnWriteArrayList<>()))) {
      e.inject(request("\"abc\"", "no/such/method"));
      await(() -> responses(e.end()).size() == 1, "it is answered");

      JsonNode r = responses(e.end()).get(0);
      assertThat(r.get("id").isString()).isTrue();
      assertThat(idOf(r)).isEqualTo(RequestId.of("abc"));
      assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(r.has("result")).isFalse();
    }
  }

  @Test
  void aDuplicateIdOfAnActiveRequestIsRefusedAndTheFirstCarriesOn() {
    CountDownLatch release = new CountDownLatch(1);
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(release, seen))) {
      e.inject(request("7", "block"));
      await(() -> e.engine.inFlightCount() == 1, "the first is in flight");
      e.inject(request("7", "ping"));
      await(() -> responses(e.end()).size() == 1, "the duplicate is answered");

      assertThat(responses(e.end()))
          .singleElement()
          .satisfies(r -> {
            assertThat(idOf(r)).isEqualTo(RequestId.of(7));
            assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.INVALID_REQUEST);
          });
      assertThat(e.engine.inFlightCount()).isEqualTo(1);

      release.countDown();
      await(() -> responses(e.end()).size() == 2, "the first is answered");
      assertThat(responses(e.end()).get(1).get("result").get("seen").asString()).isEqualTo("7");
      assertThat(seen).containsExactly(RequestId.of(7));
    }
  }

  @Test
  void anIdMayBeReusedOnceItsRequestHasEnded() {
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(new CountDownLatch(0), seen))) {
      e.inject(request("7", "ping"));
      await(() -> responses(e.end()).size() == 1, "the first is answered");
      await(() -> e.engine.inFlightCount() == 0, "the first has ended");
      e.inject(request("7", "ping"));
      await(() -> responses(e.end()).size() == 2, "the second is answered");
      assertThat(responses(e.end())).allSatisfy(r -> assertThat(r.has("result")).isTrue());
    }
  }

  @Test
  void requestsBeyondTheInFlightCapAreRefused() {
    CountDownLatch release = new CountDownLatch(1);
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(release, seen), b -> b.maxInFlight(2))) {
      e.inject(request("1", "block"));
      e.inject(request("2", "block"));
      e.inject(request("3", "block"));
      await(() -> responses(e.end()).size() == 1, "the third is refused");

      assertThat(responses(e.end()))
          .singleElement()
          .satisfies(r -> {
            assertThat(idOf(r)).isEqualTo(RequestId.of(3));
            assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.LIMIT_EXCEEDED);
          });
      release.countDown();
      await(() -> responses(e.end()).size() == 3, "the first two are answered");
      assertThat(responsesTo(e.end(), RequestId.of(1)))
          .singleElement()
          .satisfies(r -> assertThat(r.has("result")).isTrue());
      assertThat(responsesTo(e.end(), RequestId.of(2)))
          .singleElement()
          .satisfies(r -> assertThat(r.has("result")).isTrue());
      assertThat(seen).containsExactlyInAnyOrder(RequestId.of(1), RequestId.of(2));
    }
  }

  @Test
  void aBatchIsRefusedWhenNoVersionIsNegotiated() {
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(new CountDownLatch(0), seen))) {
      e.inject("[" + request("1", "ping") + "," + request("2", "ping") + "]");
      await(() -> responses(e.end()).size() == 1, "the batch is refused");

      JsonNode r = responses(e.end()).get(0);
      assertThat(r.get("id").isNull()).isTrue();
      assertThat(r.get("error").get("code").asInt()).isEqualTo(ErrorCodes.INVALID_REQUEST);
      assertThat(seen).isEmpty();
    }
  }

  @Test
  void aBatchIsRefusedInAVersionWithoutBatching() {
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(new CountDownLatch(0), seen))) {
      e.engine.version(ProtocolVersion.V2025_06_18);
      e.inject("[" + request("1", "ping") + "]");
      await(() -> responses(e.end()).size() == 1, "the batch is refused");

      assertThat(responses(e.end()).get(0).get("error").get("code").asInt())
          .isEqualTo(ErrorCodes.INVALID_REQUEST);
      assertThat(seen).isEmpty();
    }
  }

  @Test
  void aBatchIsHandledItemByItemWhenTheVersionAllowsIt() {
    List<RequestId> seen = new CopyOnWriteArrayList<>();
    try (OneEngine e = new OneEngine(blockingHandler(new CountDownLatch(0), seen))) {
      e.engine.version(ProtocolVersion.V2025_03_26);
      e.inject("[" + request("1", "ping") + "," + request("\"two\"", "ping") + "]");
      await(() -> responses(e.end()).size() == 2, "both items are answered");

      assertThat(responsesTo(e.end(), RequestId.of(1)))
          .singleElement()
          .satisfies(r -> assertThat(r.has("result")).isTrue());
      assertThat(responsesTo(e.end(), RequestId.of("two")))
          .singleElement()
          .satisfies(r -> assertThat(r.has("result")).isTrue());
    }
  }

  @Test
  void unknownNotificationsAreDroppedCountedAndNeverAnswered() {
    List<String> handled = new CopyOnWriteArrayList<>();
    try (OneEngine e =
        new OneEngine(
            blockingHandler(new CountDownLatch(0), new CopyOnWriteArrayList<>()),
            b ->
                b.onNotification(
                    "notifications/initialized", params -> handled.add("initialized")))) {
      e.inject("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/no_such_thing\",\"params\":{}}");
      e.inject("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      e.inject(request("99", "ping"));
      await(() -> responses(e.end()).size() == 1, "the ping after them is answered");

      assertThat(e.events.dropped(EventListener.DropReason.UNKNOWN_METHOD)).isEqualTo(1);
      assertThat(handled).containsExactly("initialized");
      assertThat(frames(e.end()))
          .singleElement()
          .satisfies(f -> assertThat(idOf(f)).isEqualTo(RequestId.of(99)));
    }
  }

  @Test
  void aMalformedFrameIsAnsweredWithAParseErrorAndCounted() {
    try (OneEngine e =
        new OneEngine(blockingHandler(new CountDownLatch(0), new CopyOnWriteArrayList<>()))) {
      e.inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
      await(() -> responses(e.end()).size() == 1, "it is answered");

      assertThat(responses(e.end()).get(0).get("error").get("code").asInt())
          .isEqualTo(ErrorCodes.PARSE_ERROR);
      assertThat(e.events.invalidMessages()).isEqualTo(1);
    }
  }

  @Test
  void closingTheConnectionFailsPendingCallsAndCancelsHandlers() {
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<Thread> handlerThread = new AtomicReference<>();
    AtomicReference<String> handlerSaw = new AtomicReference<>();
    AtomicInteger answered = new AtomicInteger();
    EnginePair p =
        new EnginePair(call -> {
          handlerThread.set(Thread.currentThread());
          started.countDown();
          try {
            Thread.sleep(60_000);
            answered.incrementAndGet();
          } catch (InterruptedException ie) {
            handlerSaw.set("interrupted; token " + call.cancellation().reason());
          }
          return object("{}");
        });
    OutboundCall call = p.client.request("tools/call", null);
    await(started, "the handler runs");

    p.wire.client().close(); // the connection drops under both engines

    assertThat(failure(call.result())).isInstanceOf(TransportException.class);
    join(handlerThread.get());
    assertThat(handlerSaw.get()).isEqualTo("interrupted; token connection closed");
    assertThat(answered).hasValue(0);
    assertThat(get(p.client.closed())).isNull();
    assertThat(get(p.server.closed())).isNull();
    assertThat(p.client.pendingCount()).isZero();
    assertThat(p.server.inFlightCount()).isZero();
    assertThat(responses(p.serverEnd())).isEmpty();
    assertThatThrownBy(() -> p.client.request("ping", null)).isInstanceOf(TransportException.class);
  }
}
