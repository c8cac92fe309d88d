package dev.herald.client;

import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;

/**
 * Answers the server's {@code elicitation/create} (form mode): ask the user, then accept with
 * content, decline or cancel. Herald fills in every property the user left out that the requested
 * schema gives a {@code default} for, before the result goes back (SEP-1034). Runs on the
 * request's own virtual thread.
 */
@FunctionalInterface
public interface ElicitationHandler {
  ElicitResult elicit(ElicitParams params, ClientRequestContext context) throws Exception;
}
