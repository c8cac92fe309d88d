package dev.herald.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a public method the reader of every resource an RFC 6570 level-1 URI template matches
 * (MCP 2025-11-25 server/resources, "Resource Templates") when its object is registered with
 * {@link dev.herald.server.McpServer.Builder#annotated(Object...)}.
 *
 * <p>Each template variable is bound to the parameter of the same name (or {@link
 * McpParam#name()}): {@code String}, {@code int}, {@code long}, their boxes, or an enum (read by
 * the server's Jackson mapper). Every variable must have a parameter and every parameter a
 * variable, except one optional {@link dev.herald.server.RequestContext}. A value that is not a
 * number where one is expected, or no constant of the enum, is answered as "Resource not found"
 * (-32002). Results and errors as for {@link McpResource}.
 *
 * {@snippet :
 * @McpResourceTemplate(uriTemplate = "demo://users/{id}", mimeType = "application/json")
 * public String user(long id) {
 *   return "{\"id\":" + id + "}";
 * }
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpResourceTemplate {
  /** The URI template, such as {@code demo://users/{id}}. */
  String uriTemplate();

  /** The template's {@code name} (default: the method's name in snake_case). */
  String name() default "";

  /** The template's {@code title} (default: none). */
  String title() default "";

  /** The template's {@code description} (default: none). */
  String description() default "";

  /** The template's {@code mimeType} (default: none), also given to a {@code String} or {@code byte[]} result. */
  String mimeType() default "";

  /**
   * The OAuth scopes a caller's access token must grant to see and use this entry (default: none),
   * as {@code McpServer.Builder.resourceScopes} sets them; checked only for requests that carry a principal
   * (an HTTP endpoint with authorization).
   */
  String[] scopes() default {};
}
