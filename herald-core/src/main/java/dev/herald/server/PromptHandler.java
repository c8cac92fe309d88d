package dev.herald.server;

import dev.herald.wire.GetPromptResult;

/**
 * Renders one prompt. Runs on the request's own virtual thread: block freely. Herald has already
 * checked that every argument the prompt declares {@code required} is present.
 *
 * <p>Errors: throw {@link dev.herald.wire.McpException} to answer with that JSON-RPC error (-32602
 * for an argument value the prompt cannot use); any other exception becomes -32603 "Internal
 * error" with no detail sent to the client.
 *
 * {@snippet :
 * McpServer.builder()
 *     .prompt(Prompt.of("greet", "Greets someone", List.of(PromptArgument.of("name", "Who", true))),
 *         get -> GetPromptResult.of(null, List.of(PromptMessage.user("Say hello to " + get.argument("name")))))
 *     .build();
 * }
 */
@FunctionalInterface
public interface PromptHandler {
  GetPromptResult get(PromptGet get) throws Exception;
}
