package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Work that outlives its request ({@link InboundCall#detach()}, the engine side of a task): the
 * progress token stays taken and the emitter open until the work ends, what it sends after the
 * response is not cancelled with the request, and it ends exactly once.
 */
class DetachedWorkTest {
  private final List<DetachedWork> works = new CopyOnWriteArrayList<>();

  private EnginePair pair() {
    return new EnginePair(
        call -> {
          if (call.method().equals("task")) {
            works.add(call.detach());
          }
          return McpJson.object().put("ok", true);
        },
        c -> c.requests(call -> McpJson.object().put("answered", call.method())),
        s -> s.progressInterval(Duration.ZERO));
  }

  private static JsonNode call(EnginePair p, String method, String token) throws Exception {
    return get(
        p.client
            .request(method, object("{\"_meta\":{\"progressToken\":\"" + token + "\"}}"))
            .result());
  }

  @Test
  void theTokenStaysTakenUntilTheWorkFinishesAndTheLastProgressGoesOutFirst() throws Exception {
    try (EnginePair p = pair()) {
      assertThat(call(p, "task", "t").get("ok").booleanValue()).isTrue();
      DetachedWork work = works.getFirst();
      assertThat(p.server.detachedCount()).isEqualTo(1);

      Throwable taken =
          failure(
              p.client.request("other", object("{\"_meta\":{\"progressToken\":\"t\"}}")).result());
      assertThat(((McpException) taken).code()).isEqualTo(ErrorCodes.INVALID_PARAMS);

      assertThat(work.responded()).isTrue();
      assertThat(work.progress().report(1, 2.0, "after the response")).isTrue();
      await(() -> progressValues(p.serverEnd()).contains(1.0), "progress after the response");

      assertThat(work.finish()).isTrue();
      assertThat(work.finish()).isFalse();
      assertThat(work.progress().report(2, 2.0, null)).isFalse(); // closed with the work
      assertThat(p.server.detachedCount()).isZero();
      assertThat(call(p, "other", "t").get("ok").booleanValue()).isTrue(); // free again
    }
  }

  @Test
  void aRequestTheWorkMakesIsNotCancelledByTheResponseButByTheWorksEnd() throws Exception {
    try (EnginePair p = pair()) {
      call(p, "task", "t");
      DetachedWork work = works.getFirst();
      JsonNode answer = get(work.request("ping", null, CallOptions.defaults()).result());
      assertThat(answer.get("answered").stringValue()).isEqualTo("ping");
      assertThat(cancelledIds(p.serverEnd())).isEmpty();

      assertThat(work.cancel("stop")).isTrue();
      assertThat(work.cancellation().isCancelled()).isTrue();
      assertThat(work.cancellation().reason()).isEqualTo("stop");
      assertThat(work.ended()).isTrue();
      assertThat(p.server.detachedCount()).isZero();
    }
  }

  @Test
  void theSessionsEndEndsTheWorkWithoutTrippingItsToken() throws Exception {
    EnginePair p = pair();
    call(p, "task", "t");
    DetachedWork work = works.getFirst();
    p.server.close();
    assertThat(work.ended()).isTrue();
    assertThat(p.server.detachedCount()).isZero();
    assertThat(work.cancellation().isCancelled()).isFalse(); // whoever owns the work decides
    assertThat(work.progress().report(1, null, null)).isFalse();
    assertThat(work.cancel("owner cancels")).isTrue(); // and can still stop it
    p.close();
  }
}
