package dev.herald.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one argument of an annotated tool, prompt or resource template: a method parameter, or
 * a component of a record that a tool takes or returns.
 *
 * <p>An argument is required unless its type is {@code Optional<T>}, it is annotated with any
 * annotation named {@code Nullable} (JSpecify's included), or {@link #required()} is false (then
 * an absent argument is bound as {@code null}, so the type must not be primitive).
 *
 * <p>The argument's name is the parameter's name, which the class file holds only when it was
 * compiled with {@code javac -parameters} (Herald's build does this; Maven's compiler plugin does
 * not by default). Without it, every non-context parameter must name itself with {@link #name()},
 * or registration fails saying so.
 *
 * {@snippet :
 * @McpTool(description = "Forecast for a city")
 * public String forecast(
 *     @McpParam(description = "City name") String city,
 *     @McpParam(description = "Days ahead (default 1)") Optional<Integer> days) {
 *   return city + " in " + days.orElse(1) + " day(s): sunny";
 * }
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface McpParam {
  /**
   * The argument's name (default: the parameter's name). Method parameters only: a record
   * component's name is its JSON property name.
   */
  String name() default "";

  /** The argument's {@code description} in the schema or prompt argument (default: none). */
  String description() default "";

  /** Whether the argument must be present (default true; see the type rules above). */
  boolean required() default true;

  /**
   * {@code minimum}: the smallest value a number argument may take (default: none; {@code int}
   * arguments keep their 32-bit bound unless this narrows it). Written as an integer when it is
   * one. Numbers only.
   */
  double minimum() default Double.NaN;

  /** {@code maximum}: the largest value a number argument may take (default: none). Numbers only. */
  double maximum() default Double.NaN;

  /** {@code exclusiveMinimum}: a number argument must be greater (default: none). Numbers only. */
  double exclusiveMinimum() default Double.NaN;

  /** {@code exclusiveMaximum}: a number argument must be smaller (default: none). Numbers only. */
  double exclusiveMaximum() default Double.NaN;

  /** {@code minLength}: the fewest characters of a string argument (default: none). */
  int minLength() default -1;

  /** {@code maxLength}: the most characters of a string argument (default: none). */
  int maxLength() default -1;

  /**
   * {@code pattern}: a regular expression a string argument must match somewhere (JSON Schema
   * uses ECMA-262 syntax; keep to what it shares with Java's, which checks it at registration).
   */
  String pattern() default "";

  /**
   * {@code enum}: the only values a string argument may take (default: any). A Java enum
   * parameter lists its constants by itself.
   */
  String[] allowedValues() default {};

  /**
   * {@code default}: the argument's default value as JSON text ({@code "10"}, {@code
   * "\"info\""}), which must conform to the argument's schema. An annotation for the client:
   * Herald does not fill it in, so an absent argument is still bound as absent.
   */
  String defaultValue() default "";

  /**
   * {@code x-mcp-header}: the name of the {@code Mcp-Param-{name}} HTTP header that mirrors this
   * argument on a 2026-07-28 Streamable HTTP call (MCP 2026-07-28 basic/transports/streamable-http,
   * "Custom Headers from Tool Parameters"): an HTTP token, unique in the tool case-insensitively,
   * on a string, integer or boolean argument of the tool's top level or of a nested record.
   */
  String header() default "";

  /**
   * The argument's whole JSON Schema as JSON text, used instead of the one derived from its type
   * ({@code description} is still added): for what the attributes above cannot say ({@code
   * oneOf}, {@code const}, {@code format}...). It must be a JSON object that is a valid JSON
   * Schema 2020-12, and no other schema attribute may be given beside it.
   */
  String schema() default "";
}
