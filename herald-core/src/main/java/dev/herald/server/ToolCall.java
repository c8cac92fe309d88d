package dev.herald.server;

import tools.jackson.databind.node.ObjectNode;

/**
 * One call of a tool: its arguments and the request's context.
 *
 * @param name the tool's name
 * @param arguments the arguments (an empty object when none were sent)
 * @param context progress, logging, cancellation and the session
 */
public record ToolCall(String name, ObjectNode arguments, RequestContext context) {

  /** A string argument, or {@code fallback}. */
  public String string(String key, String fallback) {
    var v = arguments.get(key);
    return v != null && v.isString() ? v.stringValue() : fallback;
  }

  /** An integer argument, or {@code fallback}. */
  public long integer(String key, long fallback) {
    var v = arguments.get(key);
    return v != null && v.isIntegralNumber() && v.canConvertToLong() ? v.longValue() : fallback;
  }
}
