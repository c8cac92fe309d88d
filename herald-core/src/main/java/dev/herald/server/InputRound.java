package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.session.CallOptions;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputRequests;
import dev.herald.wire.InputResponses;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run of a handler and the input it may ask for (MCP 2026-07-28 basic/patterns/mrtr; 2025-11-25
 * client/elicitation, client/sampling, client/roots): the one place a handler's ask is answered.
 *
 * <p>Design note. A handler asks the same way in both eras; this class decides what an ask
 * becomes. In a handshake-era session ({@link Mode#REVERSE}) it is a server-to-client request
 * ({@link ReverseCalls}) answered on the spot. In a 2026-07-28 request ({@link Mode#STATELESS}) the
 * server must not send requests, so an ask is answered from what the client sent: the answers of
 * earlier rounds carried in the verified {@code requestState}, then this retry's {@code
 * inputResponses}; an ask with no answer is recorded as missing and unwinds the handler with
 * {@link InputRequired}, which {@link InputRounds} turns into an {@code InputRequiredResult}. The
 * handler runs again from the start on the retry, so the same asks come in the same order; an
 * answer is only taken for the question it was given to (the state keeps a digest of each
 * question), so a handler that asks something else under a key is asked again rather than handed
 * a stale answer. Answers taken in this run travel in the next state; unknown extra responses are
 * ignored. Capability: an ask is allowed only if the request declared the capability it needs
 * ({@link ServerMethods#clientSupports}); otherwise -32021 (2026) or -32601 (handshake era, as
 * before). Only {@code tools/call}, {@code prompts/get} and {@code resources/read} may ask in the
 * 2026-07-28 era ({@link Mode#CLOSED} elsewhere). Mutable state is guarded by {@code lock}; no
 * blocking happens under it.
 */
final class InputRound {
  enum Mode {
    /** Handshake era: asks are server-to-client requests. */
    REVERSE,
    /** A 2026-07-28 request of a method that may answer {@code input_required}. */
    STATELESS,
    /** A 2026-07-28 request of any other method: asking is a server error. */
    CLOSED
  }

  private final ServerSession session;
  private final InboundCall call;
  private final Mode mode;
  private final Map<String, RequestStateCodec.Answer> carried;
  private final @Nullable Map<String, String> lastAsked;
  private final InputResponses responses;
  private final @Nullable String handlerState;

  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private final LinkedHashMap<String, RequestStateCodec.Answer> used = new LinkedHashMap<>();
  private final LinkedHashMap<String, InputRequest> missing = new LinkedHashMap<>();
  private int ordinal;

  private InputRound(
      ServerSession session,
      InboundCall call,
      Mode mode,
      Map<String, RequestStateCodec.Answer> carried,
      @Nullable Map<String, String> lastAsked,
      InputResponses responses,
      @Nullable String handlerState) {
    this.session = session;
    this.call = call;
    this.mode = mode;
    this.carried = carried;
    this.lastAsked = lastAsked;
    this.responses = responses;
    this.handlerState = handlerState;
  }

  static InputResponses noResponses() {
    return new InputResponses(McpJson.object());
  }

  /** A handshake-era run, with the answers and state of an explicit earlier round. */
  static InputRound reverse(
      ServerSession session, InboundCall call, InputResponses responses, @Nullable String state) {
    return new InputRound(session, call, Mode.REVERSE, Map.of(), null, responses, state);
  }

  /**
   * A 2026-07-28 run.
   *
   * @param claims the verified state of the retry, or {@code null} on a first request
   */
  static InputRound stateless(
      ServerSession session,
      InboundCall call,
      RequestStateCodec.@Nullable Claims claims,
      @Nullable InputResponses responses) {
    return new InputRound(
        session,
        call,
        Mode.STATELESS,
        claims == null ? Map.of() : claims.answers(),
        claims == null ? null : claims.asked(),
        responses == null ? noResponses() : responses,
        claims == null ? null : claims.handlerState());
  }

  /** A run of a method other than the three that may ask for input. */
  static InputRound of(ServerSession session, InboundCall call) {
    Mode mode = call.stateless() ? Mode.CLOSED : Mode.REVERSE;
    return new InputRound(session, call, mode, Map.of(), null, noResponses(), null);
  }

  Mode mode() {
    return mode;
  }

  InputResponses responses() {
    return responses;
  }

  @Nullable String handlerState() {
    return handlerState;
  }

  /** Whether the request declared what {@code request} needs. */
  boolean canAsk(InputRequest request) {
    return ServerMethods.clientSupports(session, ReverseCalls.capabilityOf(request), call);
  }

  /**
   * Asks one question and returns the answer as {@code type}.
   *
   * @param key the input key, or {@code null} for one derived from the order of the asks
   * @throws InputRequired (2026-07-28) when the answer is not there yet
   */
  <T> T ask(@Nullable String key, InputRequest request, Class<T> type, CallOptions options)
      throws InterruptedException {
    if (mode == Mode.REVERSE) {
      return type.cast(ReverseCalls.fulfil(session, call, request, options));
    }
    String k = key == null ? nextKey(request) : key;
    Map<String, InputRequest> one = new LinkedHashMap<>();
    one.put(k, request);
    InputResponses answers = askAll(one, options);
    return type.cast(typed(k, request, answers));
  }

  /**
   * Asks several questions at once; returns the answers by key.
   *
   * @throws InputRequired (2026-07-28) with every question not answered yet
   */
  InputResponses askAll(Map<String, ? extends InputRequest> requests, CallOptions options)
      throws InterruptedException {
    if (mode == Mode.REVERSE) {
      ObjectNode answers = McpJson.object();
      for (Map.Entry<String, ? extends InputRequest> e : requests.entrySet()) {
        answers.set(
            e.getKey(), McpJson.toTree(ReverseCalls.fulfil(session, call, e.getValue(), options)));
      }
      return new InputResponses(answers);
    }
    if (mode == Mode.CLOSED) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "Internal error: "
              + call.method()
              + " cannot ask the client for input; only tools/call, prompts/get and"
              + " resources/read can");
    }
    requireDeclared(requests.values());
    InputRequests asked = InputRequests.of(requests);
    ObjectNode answers = McpJson.object();
    lock.lock();
    try {
      LinkedHashMap<String, InputRequest> unanswered = new LinkedHashMap<>();
      for (Map.Entry<String, ? extends InputRequest> e : requests.entrySet()) {
        String key = e.getKey();
        String digest = digest(asked.requests().get(key));
        JsonNode answer = answer(key, digest);
        if (answer == null) {
          unanswered.put(key, e.getValue());
        } else {
          typed(key, e.getValue(), new InputResponses(McpJson.object().set(key, answer)));
          used.put(key, new RequestStateCodec.Answer(digest, answer));
          answers.set(key, answer);
        }
      }
      if (!unanswered.isEmpty()) {
        missing.putAll(unanswered);
        throw InputRequired.fromAsk(InputRequests.of(unanswered));
      }
    } finally {
      lock.unlock();
    }
    return new InputResponses(answers);
  }

  /** The answer to a question, from the carried answers first, then this retry's. */
  private @Nullable JsonNode answer(String key, String digest) {
    RequestStateCodec.Answer carriedAnswer = carried.get(key);
    if (carriedAnswer != null && carriedAnswer.asked().equals(digest)) {
      return carriedAnswer.response();
    }
    JsonNode given = responses.responses().get(key);
    if (given == null || (lastAsked != null && !digest.equals(lastAsked.get(key)))) {
      return null; // not answered, or an answer to a question this server did not ask
    }
    return given;
  }

  /** The answer read as the type its question calls for; -32602 naming the key if it is not. */
  private static Object typed(String key, InputRequest request, InputResponses answers) {
    JsonNode node = answers.responses().get(key);
    if (node == null || !node.isObject()) {
      throw RequestStateCodec.invalid(
          "inputResponses[\"" + key + "\"] must be an object answering " + request.method());
    }
    try {
      Class<?> type =
          switch (request) {
            case InputRequest.Elicit e -> dev.herald.wire.ElicitResult.class;
            case InputRequest.CreateMessage m -> dev.herald.wire.CreateMessageResult.class;
            case InputRequest.ListRoots r -> dev.herald.wire.ListRootsResult.class;
          };
      return McpJson.fromTree(node, type);
    } catch (McpException e) {
      throw RequestStateCodec.invalid(
          "inputResponses[\"" + key + "\"] is not a result of " + request.method());
    }
  }

  /** -32021 naming every capability the requests need that the request did not declare. */
  private void requireDeclared(Iterable<? extends InputRequest> requests) {
    ReverseCalls.requireDeclared(requests, this::canAsk);
  }

  private String nextKey(InputRequest request) {
    lock.lock();
    try {
      ordinal++;
      String kind =
          switch (request) {
            case InputRequest.Elicit e -> "elicitation";
            case InputRequest.CreateMessage m -> "sampling";
            case InputRequest.ListRoots r -> "roots";
          };
      return kind + "-" + ordinal;
    } finally {
      lock.unlock();
    }
  }

  /** Checks explicit requests a handler threw (capabilities) before they go out. */
  void checkThrown(InputRequests requests) {
    List<InputRequest> typed = new ArrayList<>();
    for (String key : requests.keys()) {
      InputRequest r = requests.get(key);
      if (r != null) {
        typed.add(r);
      }
    }
    requireDeclared(typed);
  }

  /** The answers taken in this run, for the next state. */
  Map<String, RequestStateCodec.Answer> used() {
    lock.lock();
    try {
      return new LinkedHashMap<>(used);
    } finally {
      lock.unlock();
    }
  }

  /** The questions this run asked and found no answer to. */
  Map<String, InputRequest> missing() {
    lock.lock();
    try {
      return new LinkedHashMap<>(missing);
    } finally {
      lock.unlock();
    }
  }

  /** The digest an answer is bound to: of the question's wire form. */
  static String digest(@Nullable JsonNode question) {
    return RequestStateCodec.digest(RequestStateCodec.canonical(question), 12);
  }
}
