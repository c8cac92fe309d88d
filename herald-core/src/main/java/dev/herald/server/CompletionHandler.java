package dev.herald.server;

import java.util.List;

/**
 * Suggests values for one argument of a prompt, or one variable of a resource template
 * ({@code completion/complete}). Runs on the request's own virtual thread.
 *
 * <p>Return every match, best first: Herald sends the first 100 with {@code total} and {@code
 * hasMore} set from the full list.
 *
 * {@snippet :
 * McpServer.builder()
 *     .completion(PromptReference.of("greet"), req ->
 *         Stream.of("alice", "bob").filter(n -> n.startsWith(req.value())).toList())
 *     .build();
 * }
 */
@FunctionalInterface
public interface CompletionHandler {
  List<String> complete(CompletionRequest request) throws Exception;
}
