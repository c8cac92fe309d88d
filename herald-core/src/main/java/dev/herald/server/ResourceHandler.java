package dev.herald.server;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.ResourceContents;

/**
 * Reads one resource, or any resource a template matches. Runs on the request's own virtual
 * thread: block freely.
 *
 * <p>Errors: throw {@link McpException} to answer with that JSON-RPC error (for example {@link
 * #notFound(String)} when a template matched a uri that names nothing); any other exception
 * becomes -32603 "Internal error" with no detail sent to the client.
 *
 * {@snippet :
 * McpServer.builder()
 *     .resource(Resource.of("demo://greeting", "greeting", "text/plain"),
 *         ResourceHandler.text("text/plain", () -> "hello"))
 *     .resourceTemplate(ResourceTemplate.of("demo://users/{id}", "user", "application/json"),
 *         read -> ReadResourceResult.of(ResourceContents.text(read.uri(), "application/json",
 *             "{\"id\":\"" + read.variable("id") + "\"}")))
 *     .build();
 * }
 */
@FunctionalInterface
public interface ResourceHandler {
  ReadResourceResult read(ResourceRead read) throws Exception;

  /** A handler answering with one text content, computed on each read. */
  static ResourceHandler text(String mimeType, java.util.function.Supplier<String> text) {
    return read -> ReadResourceResult.of(ResourceContents.text(read.uri(), mimeType, text.get()));
  }

  /** A handler answering with one blob content (base64), computed on each read. */
  static ResourceHandler blob(String mimeType, java.util.function.Supplier<String> base64) {
    return read -> ReadResourceResult.of(ResourceContents.blob(read.uri(), mimeType, base64.get()));
  }

  /** The legacy-era "Resource not found" error: -32002 with {@code data: {uri}}. */
  static McpException notFound(String uri) {
    return new McpException(
        ErrorCodes.RESOURCE_NOT_FOUND, "Resource not found", McpJson.object().put("uri", uri));
  }
}
