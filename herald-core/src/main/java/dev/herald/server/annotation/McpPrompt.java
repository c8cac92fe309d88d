package dev.herald.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a public method an MCP prompt (MCP 2025-11-25 server/prompts) when its object is
 * registered with {@link dev.herald.server.McpServer.Builder#annotated(Object...)}.
 *
 * <p>Each {@code String} parameter is one prompt argument (required unless {@code
 * Optional<String>}, {@code @Nullable} or {@code @McpParam(required = false)}; described by
 * {@link McpParam}); one parameter may be the {@link dev.herald.server.RequestContext}. The
 * method returns a {@code GetPromptResult}, a {@code List<PromptMessage>}, one {@code
 * PromptMessage}, or a {@code String} (one user message). Herald checks required arguments before
 * the method runs; {@link dev.herald.wire.McpException} answers with that error, any other
 * exception with -32603, as for a hand-written {@link dev.herald.server.PromptHandler}.
 *
 * {@snippet :
 * @McpPrompt(description = "Greets someone")
 * public String greet(@McpParam(description = "Who to greet") String name) {
 *   return "Say hello to " + name;
 * }
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpPrompt {
  /** The prompt's name (default: the method's name in snake_case). */
  String name() default "";

  /** The prompt's {@code title} (default: none). */
  String title() default "";

  /** The prompt's {@code description} (default: none). */
  String description() default "";
}
