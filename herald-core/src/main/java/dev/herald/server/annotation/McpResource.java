package dev.herald.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a public method the reader of one MCP resource with a fixed URI (MCP 2025-11-25
 * server/resources) when its object is registered with {@link
 * dev.herald.server.McpServer.Builder#annotated(Object...)}. The server then declares {@code
 * resources: {subscribe: true, listChanged: true}}.
 *
 * <p>The method takes no arguments, or only the {@link dev.herald.server.RequestContext}. It
 * returns a {@code ReadResourceResult}, one {@code ResourceContents} or a {@code List} of them, a
 * {@code String} (one text content of {@link #mimeType()}) or a {@code byte[]} (one blob
 * content). {@link dev.herald.wire.McpException} answers with that error, any other exception
 * with -32603, as for a hand-written {@link dev.herald.server.ResourceHandler}.
 *
 * {@snippet :
 * @McpResource(uri = "demo://greeting", mimeType = "text/plain", description = "A greeting")
 * public String greeting() {
 *   return "hello";
 * }
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpResource {
  /** The resource's URI. */
  String uri();

  /** The resource's {@code name} (default: the method's name in snake_case). */
  String name() default "";

  /** The resource's {@code title} (default: none). */
  String title() default "";

  /** The resource's {@code description} (default: none). */
  String description() default "";

  /** The resource's {@code mimeType} (default: none), also given to a {@code String} or {@code byte[]} result. */
  String mimeType() default "";
}
