package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** What a server supports, declared once in {@code initialize} and fixed for the session. */
public record ServerCapabilities(
    @Nullable ObjectNode experimental,
    @Nullable ObjectNode logging,
    @Nullable ObjectNode completions,
    @Nullable ListChanged prompts,
    @Nullable Resources resources,
    @Nullable ListChanged tools,
    @Nullable ObjectNode tasks,
    @Nullable ObjectNode extensions) {

  /** {@code tools} or {@code prompts}: present means supported; {@code listChanged} if notified. */
  public record ListChanged(@Nullable Boolean listChanged) {}

  /** {@code resources}: {@code subscribe} and {@code listChanged}. */
  public record Resources(@Nullable Boolean subscribe, @Nullable Boolean listChanged) {}

  public static ServerCapabilities none() {
    return new ServerCapabilities(null, null, null, null, null, null, null, null);
  }

  public boolean toolsListChanged() {
    return tools != null && Boolean.TRUE.equals(tools.listChanged());
  }

  public boolean promptsListChanged() {
    return prompts != null && Boolean.TRUE.equals(prompts.listChanged());
  }

  public boolean resourcesListChanged() {
    return resources != null && Boolean.TRUE.equals(resources.listChanged());
  }

  public boolean resourcesSubscribe() {
    return resources != null && Boolean.TRUE.equals(resources.subscribe());
  }

  public boolean supportsLogging() {
    return logging != null;
  }
}
