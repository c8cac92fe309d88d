package dev.herald.server;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One read of a resource.
 *
 * @param uri the uri the client asked for
 * @param variables the template variables it matched, percent-decoded (empty for a static resource)
 * @param context cancellation, logging, reverse calls and the session
 */
public record ResourceRead(String uri, Map<String, String> variables, RequestContext context) {
  public ResourceRead {
    variables = Map.copyOf(variables);
  }

  /** A template variable, or {@code null} when the template has none by that name. */
  public @Nullable String variable(String name) {
    return variables.get(name);
  }
}
