package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a {@code subscriptions/listen} stream carries (2026-07-28 {@code SubscriptionFilter}); an
 * omitted member means not subscribed. {@code taskIds} is added by the
 * {@code io.modelcontextprotocol/tasks} extension.
 */
public record SubscriptionFilter(
    @Nullable Boolean toolsListChanged,
    @Nullable Boolean promptsListChanged,
    @Nullable Boolean resourcesListChanged,
    @Nullable List<String> resourceSubscriptions,
    @Nullable List<String> taskIds) {

  public SubscriptionFilter {
    resourceSubscriptions =
        resourceSubscriptions == null ? null : List.copyOf(resourceSubscriptions);
    taskIds = taskIds == null ? null : List.copyOf(taskIds);
  }

  public static SubscriptionFilter none() {
    return new SubscriptionFilter(null, null, null, null, null);
  }

  public boolean wantsToolsListChanged() {
    return Boolean.TRUE.equals(toolsListChanged);
  }

  public boolean wantsPromptsListChanged() {
    return Boolean.TRUE.equals(promptsListChanged);
  }

  public boolean wantsResourcesListChanged() {
    return Boolean.TRUE.equals(resourcesListChanged);
  }

  public List<String> resourceSubscriptionsOrEmpty() {
    return resourceSubscriptions == null ? List.of() : resourceSubscriptions;
  }

  public List<String> taskIdsOrEmpty() {
    return taskIds == null ? List.of() : taskIds;
  }
}
