package dev.herald.server;

import dev.herald.wire.CompletionReference;
import java.util.Map;

/**
 * One {@code completion/complete}.
 *
 * @param ref the prompt or resource template being completed
 * @param argument the argument (or template variable) name
 * @param value what the user has typed so far
 * @param context values of arguments already resolved (empty when none)
 * @param requestContext cancellation, logging and the session
 */
public record CompletionRequest(
    CompletionReference ref,
    String argument,
    String value,
    Map<String, String> context,
    RequestContext requestContext) {
  public CompletionRequest {
    context = Map.copyOf(context);
  }
}
