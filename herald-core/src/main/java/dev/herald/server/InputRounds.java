package dev.herald.server;

import dev.herald.internal.session.ExceptionTranslation;
import dev.herald.internal.session.InboundCall;
import dev.herald.session.CallOptions;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequests;
import dev.herald.wire.InputRequiredResult;
import dev.herald.wire.InputResponses;
import dev.herald.wire.McpException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Runs a {@code tools/call}, {@code prompts/get} or {@code resources/read} handler through its
 * input rounds (MCP 2026-07-28 basic/patterns/mrtr, "Multi Round-Trip Requests").
 *
 * <p>Design note. In a 2026-07-28 request the retry's {@code requestState} is opened and checked
 * against this request (method, name, arguments digest, principal) before the handler runs; the
 * handler runs once, and if it asked for input that is not there ({@link InputRound}) or threw
 * {@link InputRequired} itself, the answer is an {@code InputRequiredResult} with a freshly signed
 * state carrying the answers taken so far, the digests of the questions asked and the handler's
 * own state. The result of such a round is a plain {@code InputRequiredResult}: no cache hints.
 * In a handshake-era session implicit asks are reverse requests; an explicit {@link
 * InputRequired} is fulfilled with reverse requests and the handler runs again with the answers,
 * at most {@link #MAX_REVERSE_ROUNDS} times.
 */
final class InputRounds {
  private InputRounds() {}

  /** Bound on explicit rounds in a handshake-era session, against a handler that never ends. */
  static final int MAX_REVERSE_ROUNDS = 16;

  /** The request a state is bound to, and the retry fields it carried. */
  record Target(
      String method,
      String name,
      @Nullable JsonNode arguments,
      @Nullable InputResponses responses,
      @Nullable String requestState) {}

  /** A handler run with the context of one round. */
  @FunctionalInterface
  interface Body<R> {
    R run(CallContext context) throws Exception;
  }

  /**
   * Runs {@code body} through its rounds.
   *
   * @return the body's result, or an {@link InputRequiredResult}
   */
  static Object serve(ServerSession session, InboundCall call, Target target, Body<?> body)
      throws Exception {
    if (!call.stateless()) {
      return reverse(session, call, body);
    }
    RequestStateCodec codec = session.server().requestStates;
    // The digests of the arguments and the principal are needed only to check a requestState or
    // to seal a new one: a call that has neither (the usual one) does not compute them.
    @Nullable String arguments = null;
    @Nullable String principal = null;
    RequestStateCodec.Claims claims = null;
    if (target.requestState() != null) {
      arguments = RequestStateCodec.digest(RequestStateCodec.canonical(target.arguments()), 16);
      principal = principal(codec, session, call);
      claims = codec.open(target.requestState());
      if (!claims.method().equals(target.method())
          || !claims.name().equals(target.name())
          || !claims.arguments().equals(arguments)) {
        throw RequestStateCodec.invalid(
            "requestState was issued for a different request (another method, name, uri or"
                + " arguments)");
      }
      if (!Objects.equals(claims.principal(), principal)) {
        throw RequestStateCodec.invalid("requestState was issued to a different principal");
      }
    }
    InputRound round = InputRound.stateless(session, call, claims, target.responses());
    InputRequests asked;
    String handlerState = round.handlerState();
    try {
      Object result = body.run(new CallContext(session, call, round));
      if (round.missing().isEmpty()) {
        return Objects.requireNonNull(result);
      }
      asked = InputRequests.of(round.missing()); // the handler swallowed an ask's InputRequired
    } catch (InputRequired e) {
      asked = InputRequests.of(round.missing());
      if (!e.fromAsk()) {
        round.checkThrown(e.requests());
        for (String key : e.requests().keys()) {
          asked = asked.with(key, Objects.requireNonNull(e.requests().get(key)));
        }
        handlerState = e.state();
      }
    } catch (Exception e) {
      if (round.missing().isEmpty()
          || ExceptionTranslation.classify(e, call) == ExceptionTranslation.Kind.CANCELLED) {
        throw e;
      }
      asked = InputRequests.of(round.missing()); // an ask's InputRequired, wrapped by the handler
    }
    Map<String, String> digests = new LinkedHashMap<>();
    for (String key : asked.keys()) {
      digests.put(key, InputRound.digest(asked.requests().get(key)));
    }
    if (arguments == null) {
      arguments = RequestStateCodec.digest(RequestStateCodec.canonical(target.arguments()), 16);
      principal = principal(codec, session, call);
    }
    String state =
        codec.seal(
            new RequestStateCodec.Claims(
                target.method(),
                target.name(),
                arguments,
                principal,
                codec.settings().clock.millis() + codec.settings().ttl.toMillis(),
                round.used(),
                digests,
                handlerState));
    return InputRequiredResult.of(asked, state);
  }

  /** The digest of the principal behind {@code call}, or {@code null} when the hook names none. */
  static @Nullable String principal(
      RequestStateCodec codec, ServerSession session, InboundCall call) {
    String who =
        codec
            .settings()
            .principal
            .apply(new CallContext(session, call, InputRound.of(session, call)));
    return who == null ? null : RequestStateCodec.digest("principal:" + who, 16);
  }

  private static Object reverse(ServerSession session, InboundCall call, Body<?> body)
      throws Exception {
    InputResponses responses = InputRound.noResponses();
    String state = null;
    for (int rounds = 1; ; rounds++) {
      try {
        return body.run(
            new CallContext(session, call, InputRound.reverse(session, call, responses, state)));
      } catch (InputRequired e) {
        if (rounds >= MAX_REVERSE_ROUNDS) {
          throw new McpException(
              ErrorCodes.INTERNAL_ERROR,
              "Internal error: the handler of "
                  + call.method()
                  + " asked for input "
                  + MAX_REVERSE_ROUNDS
                  + " rounds in a row");
        }
        InputRound round = InputRound.reverse(session, call, InputRound.noResponses(), null);
        Map<String, dev.herald.wire.InputRequest> typed = new LinkedHashMap<>();
        for (String key : e.requests().keys()) {
          typed.put(key, Objects.requireNonNull(e.requests().get(key)));
        }
        responses = round.askAll(typed, CallOptions.defaults());
        state = e.state();
      }
    }
  }
}
