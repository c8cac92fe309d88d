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
}
