package dev.herald.server;

import dev.herald.wire.InputRequest;
import dev.herald.wire.InputRequests;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a {@code tools/call}, {@code prompts/get} or {@code resources/read} handler that needs
 * input from the client before it can answer (MCP 2026-07-28 basic/patterns/mrtr): the input
 * requests, keyed by names the handler chooses, and optionally a state of the handler's own.
 *
 * <p>Most handlers never throw it themselves: {@link RequestContext#elicit}, {@link
 * RequestContext#sample}, {@link RequestContext#listRoots} and {@link RequestContext#ask} throw it
 * for them when an answer is not there yet. A handler that keeps its own state throws it
 * explicitly and reads {@link RequestContext#inputResponses()} and {@link
 * RequestContext#requestState()} when it runs again:
 *
 * {@snippet :
 * ToolHandler handler = call -> {
 *   RequestContext ctx = call.context();
 *   ElicitResult answer = ctx.inputResponses().elicit("confirm");
 *   if (answer == null) {
 *     throw new InputRequired(
 *         Map.of("confirm", InputRequest.elicit(ElicitParams.form("Proceed?", schema))),
 *         "step-2");
 *   }
 *   return CallToolResult.text("state " + ctx.requestState() + ", action " + answer.action());
 * };
 * }
 *
 * <p>What the client sees depends on the request. A 2026-07-28 request gets an {@code
 * InputRequiredResult} whose {@code requestState} Herald signs and binds to the request (the
 * handler's own state travels inside it); the client's retry runs the handler again from the
 * start. In a handshake-era session Herald sends each input request to the client as a
 * server-to-client request and runs the handler again with the answers, so the same handler
 * serves both eras. A handler must let this exception pass: catching it (for example in a {@code
 * catch (Exception e)}) swallows the round.
 */
public final class InputRequired extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient InputRequests requests;
  private final @Nullable String state;
  private final boolean fromAsk;

  /**
   * @param requests the input requests by key; at least one
   * @param state the handler's own state, given back by {@link RequestContext#requestState()}
   *     when the handler runs again; signed but readable by the client
   * @throws IllegalArgumentException if there are no requests
   */
  public InputRequired(Map<String, ? extends InputRequest> requests, @Nullable String state) {
    this(InputRequests.of(Objects.requireNonNull(requests, "requests")), state);
  }

  /** {@link #InputRequired(Map, String)} with the requests as their wire map. */
  public InputRequired(InputRequests requests, @Nullable String state) {
    this(requests, state, false);
  }

  private InputRequired(InputRequests requests, @Nullable String state, boolean fromAsk) {
    super("input required: " + requests.keys(), null, false, false);
    this.fromAsk = fromAsk;
    if (requests.size() == 0) {
      throw new IllegalArgumentException("an InputRequired needs at least one input request");
    }
    this.requests = requests;
    this.state = state;
  }

  /** Thrown by an ask of the request context (not by the handler itself). */
  static InputRequired fromAsk(InputRequests requests) {
    return new InputRequired(requests, null, true);
  }

  boolean fromAsk() {
    return fromAsk;
  }

  /** The input requests by key. */
  public InputRequests requests() {
    return requests;
  }

  /** The handler's own state, or {@code null}. */
  public @Nullable String state() {
    return state;
  }
}
