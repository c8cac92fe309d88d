package dev.herald.internal.session;

import tools.jackson.databind.JsonNode;

/**
 * The role's answer to inbound requests (the server's method table, the client's handlers for
 * sampling, elicitation, roots and ping). Runs on the request's own virtual thread.
 */
@FunctionalInterface
public interface RequestHandler {
  /**
   * Handles one request.
   *
   * @return the result object
   * @throws dev.herald.wire.McpException to answer with that JSON-RPC error (-32601 for an
   *     unknown method)
   * @throws Exception anything else; {@link ExceptionTranslation} decides what it becomes
   */
  JsonNode handle(InboundCall call) throws Exception;
}
