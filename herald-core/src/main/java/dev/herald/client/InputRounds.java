package dev.herald.client;

import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CancellationToken;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputRequests;
import dev.herald.wire.InputRequiredResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResultType;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One call that may take several round trips (MCP 2026-07-28 basic/patterns/mrtr): {@code
 * tools/call}, {@code prompts/get} or {@code resources/read}.
 *
 * <p>Design note. Each round is an ordinary request with a new id. A result whose {@code
 * resultType} is {@code input_required} is fulfilled with the host's sampling, elicitation and
 * roots handlers (the same ones that answer a handshake-era server's requests), every input
 * request of the round, keyed as the server keyed them; the next round is the original params
 * plus {@code inputResponses} and the {@code requestState} echoed exactly (none when none was
 * given). A missing {@code resultType} means complete (older servers); an unknown one is invalid
 * and fails the call; so do more rounds than the client allows and an input request whose handler
 * the host did not give. The handlers run on a virtual thread of their own, never on the reader.
 *
 * <p>Thread-safe: {@code current} is the round in flight; cancelling cancels it and stops the rest.
 */
final class InputRounds {
  /** Sends one round's request (the client stamps the request metadata). */
  interface Sender {
    OutboundCall send(ObjectNode params);
  }

  private final String method;
  private final ObjectNode params;
  private final Sender sender;
  private final ClientMethods answers;
  private final int maxRounds;
  private final java.util.function.@Nullable Predicate<JsonNode> isTask;
  private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
  private final Token token = new Token();
  private volatile OutboundCall current;
  private volatile int rounds = 1;

  private InputRounds(
      String method,
      ObjectNode params,
      Sender sender,
      ClientMethods answers,
      int maxRounds,
      java.util.function.@Nullable Predicate<JsonNode> isTask) {
    this.isTask = isTask;
    this.method = method;
    this.params = params;
    this.sender = sender;
    this.answers = answers;
    this.maxRounds = maxRounds;
    this.current = sender.send(params);
    watch(current, 1);
  }

  /** Starts the first round. */
  static InputRounds start(
      String method, ObjectNode params, Sender sender, ClientMethods answers, int maxRounds) {
    return new InputRounds(method, params, sender, answers, maxRounds, null);
  }

  /**
   * Starts the first round of a call that may end in a task: a result {@code isTask} accepts (a
   * 2025-11-25 {@code CreateTaskResult}, or {@code resultType: "task"} of the 2026-07-28 tasks
   * extension) is final here too, and the caller follows the task.
   */
  static InputRounds start(
      String method,
      ObjectNode params,
      Sender sender,
      ClientMethods answers,
      int maxRounds,
      java.util.function.Predicate<JsonNode> isTask) {
    return new InputRounds(method, params, sender, answers, maxRounds, isTask);
  }

  /** The id of the round in flight (or the last one). */
  RequestId id() {
    return current.id();
  }

  /** How many rounds the call took so far (1: no {@code input_required}). */
  int rounds() {
    return rounds;
  }

  /** Completes with the final result (never an {@code input_required} one). */
  CompletableFuture<JsonNode> result() {
    return result;
  }

  /** The progress record of the round in flight, when the call asked for progress. */
  Optional<ProgressRecord> progressRecord() {
    return current.progressRecord();
  }

  /** The progress token the last round's result handed on to a task, if it did. */
  Optional<dev.herald.internal.session.ProgressLease> keptProgress() {
    return current.keptProgress();
  }

  /** Cancels the round in flight and every later one; false if the call had already ended. */
  boolean cancel(String reason) {
    if (result.isDone()) {
      return false;
    }
    token.cancelNow(reason);
    boolean sent = current.cancel(reason);
    result.completeExceptionally(new CancelledException(reason));
    return sent || result.isCompletedExceptionally();
  }

  private void watch(OutboundCall call, int round) {
    call.result()
        .whenComplete((node, error) -> {
          if (error != null) {
            result.completeExceptionally(
                error instanceof CompletionException ce && ce.getCause() != null
                    ? ce.getCause()
                    : error);
            return;
          }
          Thread.ofVirtual()
              .name("herald-input-round")
              .start(() -> {
                try {
                  next(node, round);
                } catch (Throwable t) {
                  result.completeExceptionally(t);
                }
              });
        });
  }

  private void next(JsonNode node, int round) throws Exception {
    ObjectNode retry = retryFor(node, round);
    if (retry == null) {
      result.complete(node);
      return;
    }
    token.throwIfCancelled();
    if (result.isDone()) {
      return;
    }
    OutboundCall call = sender.send(retry);
    current = call;
    rounds = round + 1;
    if (result.isDone()) {
      call.cancel("cancelled");
      return;
    }
    watch(call, round + 1);
  }

  /**
   * Runs a call's rounds on the calling thread and returns the final result: each round is sent
   * with {@code sender} and awaited here, and input the server asks for is given here too (the
   * caller blocks anyway, so no thread is started for it). Used by the blocking calls, whose
   * sender may complete the round's future where its response is delivered.
   *
   * @throws InterruptedException if the calling thread is interrupted while waiting (the round in
   *     flight goes on, as with {@link #result()})
   */
  static JsonNode await(
      String method, ObjectNode params, Sender sender, ClientMethods answers, int maxRounds)
      throws InterruptedException {
    InputRounds rounds = new InputRounds(method, params, sender, answers, maxRounds);
    JsonNode node = McpClient.await(rounds.current.result());
    for (int round = 1; ; round++) {
      ObjectNode retry;
      try {
        retry = rounds.retryFor(node, round);
      } catch (RuntimeException e) {
        throw e;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        throw new dev.herald.transport.TransportException("call failed: " + e, e); // as unwrap
      }
      if (retry == null) {
        return node;
      }
      rounds.current = sender.send(retry);
      rounds.rounds = round + 1;
      node = McpClient.await(rounds.current.result());
    }
  }

  /** A call whose rounds the caller drives ({@link #await}); sends the first round. */
  private InputRounds(
      String method, ObjectNode params, Sender sender, ClientMethods answers, int maxRounds) {
    this.isTask = null;
    this.method = method;
    this.params = params;
    this.sender = sender;
    this.answers = answers;
    this.maxRounds = maxRounds;
    this.current = sender.send(params);
  }

  /**
   * The params of the round after {@code node}, the result of round {@code round}; null when
   * {@code node} is the final result (complete, or a task).
   */
  private @Nullable ObjectNode retryFor(JsonNode node, int round) throws Exception {
    if (isTask != null && isTask.test(node)) {
      return null;
    }
    String type = ResultType.of(node);
    if (ResultType.COMPLETE.equals(type)) {
      return null;
    }
    if (!ResultType.INPUT_REQUIRED.equals(type)) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "the server answered "
              + method
              + " with "
              + (type == null
                  ? "a resultType that is not a string"
                  : "the unknown resultType \"" + type + "\"")
              + "; this client knows \"complete\" and \"input_required\"");
    }
    InputRequiredResult asked;
    try {
      asked = McpJson.resultFromTree(node, InputRequiredResult.class);
    } catch (RuntimeException e) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "the server's input_required result for " + method + " is malformed: " + e.getMessage());
    }
    if (round >= maxRounds) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "the server still asked for input after "
              + round
              + " rounds of "
              + method
              + " (this client allows "
              + maxRounds
              + "; McpClient.Builder.maxInputRounds)");
    }
    ObjectNode retry = params.deepCopy();
    retry.remove("inputResponses");
    retry.remove("requestState");
    InputRequests requests = asked.inputRequests();
    if (requests != null) {
      ObjectNode responses = McpJson.object();
      for (String key : requests.keys()) {
        token.throwIfCancelled();
        responses.set(key, McpJson.toTree(answer(key, requests)));
      }
      retry.set("inputResponses", responses);
    }
    if (asked.requestState() != null) {
      retry.put("requestState", asked.requestState());
    }
    return retry;
  }

  private Object answer(String key, InputRequests requests) throws Exception {
    InputRequest request = requests.get(key);
    if (request == null) {
      throw new McpException(ErrorCodes.INTERNAL_ERROR, "input request " + key + " vanished");
    }
    ClientRequestContext context = context();
    return switch (request) {
      case InputRequest.Elicit e -> answers.elicitInput(key, e.params(), context);
      case InputRequest.CreateMessage m -> answers.sampleInput(key, m.params(), context);
      case InputRequest.ListRoots r -> answers.rootsInput(key);
    };
  }

  private ClientRequestContext context() {
    RequestId id = current.id();
    return new ClientRequestContext() {
      @Override
      public RequestId requestId() {
        return id;
      }

      @Override
      public CancellationToken cancellation() {
        return token;
      }

      @Override
      public ProgressReporter progress() {
        return ProgressReporter.NONE;
      }
    };
  }

  /** Trips when the call is cancelled, so a handler asking the user can stop. */
  private static final class Token extends CancellationToken {
    void cancelNow(String reason) {
      cancel(reason);
    }
  }
}
