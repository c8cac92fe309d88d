package dev.herald.wire;

/** Method names of every MCP request and notification, both eras. */
public final class McpMethods {
  private McpMethods() {}

  // Lifecycle and discovery
  public static final String INITIALIZE = "initialize";
  public static final String INITIALIZED = "notifications/initialized";
  public static final String PING = "ping";
  public static final String SERVER_DISCOVER = "server/discover";

  // Tools, resources, prompts, completions
  public static final String TOOLS_LIST = "tools/list";
  public static final String TOOLS_CALL = "tools/call";
  public static final String RESOURCES_LIST = "resources/list";
  public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";
  public static final String RESOURCES_READ = "resources/read";
  public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";
  public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";
  public static final String PROMPTS_LIST = "prompts/list";
  public static final String PROMPTS_GET = "prompts/get";
  public static final String COMPLETION_COMPLETE = "completion/complete";
  public static final String LOGGING_SET_LEVEL = "logging/setLevel";

  // Server to client (legacy era)
  public static final String SAMPLING_CREATE_MESSAGE = "sampling/createMessage";
  public static final String ELICITATION_CREATE = "elicitation/create";
  public static final String ROOTS_LIST = "roots/list";

  // Tasks
  public static final String TASKS_GET = "tasks/get";
  public static final String TASKS_RESULT = "tasks/result";
  public static final String TASKS_CANCEL = "tasks/cancel";
  public static final String TASKS_LIST = "tasks/list";

  /** Tasks extension ({@code io.modelcontextprotocol/tasks}, 2026-07-28) only. */
  public static final String TASKS_UPDATE = "tasks/update";

  // Modern era
  public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";

  // Notifications
  public static final String CANCELLED = "notifications/cancelled";
  public static final String PROGRESS = "notifications/progress";
  public static final String MESSAGE = "notifications/message";
  public static final String RESOURCES_UPDATED = "notifications/resources/updated";
  public static final String RESOURCES_LIST_CHANGED = "notifications/resources/list_changed";
  public static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
  public static final String PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed";
  public static final String ROOTS_LIST_CHANGED = "notifications/roots/list_changed";
  public static final String TASKS_STATUS = "notifications/tasks/status";

  /** Tasks extension status push (not {@code notifications/tasks/status}). */
  public static final String TASKS_EXT_STATUS = "notifications/tasks";

  public static final String ELICITATION_COMPLETE = "notifications/elicitation/complete";
  public static final String SUBSCRIPTIONS_ACKNOWLEDGED =
      "notifications/subscriptions/acknowledged";
}
