package dev.herald.client;

import dev.herald.internal.session.Capability;
import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.MethodRow;
import dev.herald.internal.session.MethodTable;
import dev.herald.session.CancellationToken;
import dev.herald.session.Interceptor;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CancelTaskParams;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.GetTaskParams;
import dev.herald.wire.GetTaskPayloadParams;
import dev.herald.wire.GetTaskResult;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.ListTasksResult;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Root;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.TaskStatusNotificationParams;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's method table (MCP specification, "Client Features"): {@code ping}, and {@code
 * sampling/createMessage}, {@code elicitation/create} and {@code roots/list}, each needing the
 * capability the client declared (by giving the builder its handler) and existing only in the
 * protocol versions in which servers send requests; and the server's notifications (logs, list
 * changes, resource updates), each acted on only when the server declared its capability. An instance holds the host's handlers; the
 * rows are shared. Runs on the request's own virtual thread.
 */
final class ClientMethods {
  static final Capability SAMPLING = Capability.client("sampling", c -> c.supportsSampling());
  static final Capability ELICITATION =
      Capability.client("elicitation", c -> c.supportsElicitation());
  static final Capability ROOTS = Capability.client("roots", c -> c.supportsRoots());
  static final Capability LOGGING =
      Capability.server("logging", ServerCapabilities::supportsLogging);
  static final Capability TOOLS_LIST_CHANGED =
      Capability.server("tools.listChanged", ServerCapabilities::toolsListChanged);
  static final Capability PROMPTS_LIST_CHANGED =
      Capability.server("prompts.listChanged", ServerCapabilities::promptsListChanged);
  static final Capability RESOURCES_LIST_CHANGED =
      Capability.server("resources.listChanged", ServerCapabilities::resourcesListChanged);
  static final Capability TASKS = Capability.server("tasks", c -> c.tasks() != null);
  static final Capability HOSTED_TASKS = Capability.client("tasks", c -> c.tasks() != null);
  static final Capability RESOURCES_SUBSCRIBE =
      Capability.server("resources.subscribe", ServerCapabilities::resourcesSubscribe);

  static final List<MethodRow<McpClient, ?, ?>> ROWS =
      List.of(
          MethodRow.request(McpMethods.PING, Void.class, ObjectNode.class)
              .in(ProtocolVersion::ping)
              .beforeInitialized()
              .handler((McpClient c, Void p, InboundCall call) -> McpJson.object()),
          // the result is a CreateMessageResult, or a CreateTaskResult when task-augmented
          MethodRow.request(
                  McpMethods.SAMPLING_CREATE_MESSAGE, CreateMessageParams.class, Object.class)
              .in(ProtocolVersion::serverRequests)
              .needs(SAMPLING)
              .handler((McpClient c, CreateMessageParams p, InboundCall call) ->
                  c.answers().sampleOrTask(p, call)),
          // the result is an ElicitResult, or a CreateTaskResult when task-augmented
          MethodRow.request(McpMethods.ELICITATION_CREATE, ElicitParams.class, Object.class)
              .in(v -> v.serverRequests() && v.elicitation())
              .needs(ELICITATION)
              .handler((McpClient c, ElicitParams p, InboundCall call) ->
                  c.answers().elicitOrTask(p, call)),
          // MCP 2025-11-25 basic/utilities/tasks: the tasks this client hosts for its server
          MethodRow.request(McpMethods.TASKS_GET, GetTaskParams.class, GetTaskResult.class)
              .in(ProtocolVersion::handshake)
              .needs(HOSTED_TASKS)
              .handler((McpClient c, GetTaskParams p, InboundCall call) ->
                  c.answers().hosted().get(p.taskId())),
          MethodRow.request(McpMethods.TASKS_RESULT, GetTaskPayloadParams.class, ObjectNode.class)
              .in(ProtocolVersion::handshake)
              .needs(HOSTED_TASKS)
              .handler((McpClient c, GetTaskPayloadParams p, InboundCall call) ->
                  c.answers().hosted().result(p.taskId())),
          MethodRow.request(McpMethods.TASKS_LIST, Void.class, ListTasksResult.class)
              .in(ProtocolVersion::handshake)
              .needs(HOSTED_TASKS)
              .handler((McpClient c, Void p, InboundCall call) -> c.answers().hosted().list()),
          MethodRow.request(McpMethods.TASKS_CANCEL, CancelTaskParams.class, GetTaskResult.class)
              .in(ProtocolVersion::handshake)
              .needs(HOSTED_TASKS)
              .handler((McpClient c, CancelTaskParams p, InboundCall call) ->
                  c.answers().hosted().cancel(p.taskId())),
          MethodRow.request(McpMethods.ROOTS_LIST, Void.class, ListRootsResult.class)
              .in(ProtocolVersion::serverRequests)
              .needs(ROOTS)
              .handler((McpClient c, Void p, InboundCall call) -> c.answers().roots()),
          // Notifications the server sends, each acted on only when the server declared its
          // capability
          // at initialize; otherwise dropped and reported (MCP specification, "Capability
          // Negotiation").
          MethodRow.notification(McpMethods.MESSAGE, LoggingMessageParams.class)
              .needs(LOGGING)
              .receiver((McpClient c, @Nullable LoggingMessageParams p) -> c.onLog(p)),
          MethodRow.notification(McpMethods.TOOLS_LIST_CHANGED, Void.class)
              .needs(TOOLS_LIST_CHANGED)
              .receiver((McpClient c, @Nullable Void p) -> c.listChanged(McpClient.Area.TOOLS)),
          MethodRow.notification(McpMethods.PROMPTS_LIST_CHANGED, Void.class)
              .needs(PROMPTS_LIST_CHANGED)
              .receiver((McpClient c, @Nullable Void p) -> c.listChanged(McpClient.Area.PROMPTS)),
          MethodRow.notification(McpMethods.RESOURCES_LIST_CHANGED, Void.class)
              .needs(RESOURCES_LIST_CHANGED)
              .receiver((McpClient c, @Nullable Void p) -> c.listChanged(McpClient.Area.RESOURCES)),
          MethodRow.notification(McpMethods.RESOURCES_UPDATED, ResourceUpdatedParams.class)
              .needs(RESOURCES_SUBSCRIBE)
              .receiver((McpClient c, @Nullable ResourceUpdatedParams p) -> c.onResourceUpdated(p)),
          // MCP 2025-11-25 basic/utilities/tasks: the status of a task the server runs for us
          MethodRow.notification(McpMethods.TASKS_STATUS, TaskStatusNotificationParams.class)
              .in(ProtocolVersion::handshake)
              .needs(TASKS)
              .receiver(
                  (McpClient c, @Nullable TaskStatusNotificationParams p) -> c.onTaskStatus(p)));

  private final @Nullable SamplingHandler sampling;
  private final @Nullable ElicitationHandler elicitation;
  private final @Nullable Supplier<List<Root>> roots;
  private final @Nullable HostedTasks hosted;

  ClientMethods(
      @Nullable SamplingHandler sampling,
      @Nullable ElicitationHandler elicitation,
      @Nullable Supplier<List<Root>> roots) {
    this(sampling, elicitation, roots, null);
  }

  ClientMethods(
      @Nullable SamplingHandler sampling,
      @Nullable ElicitationHandler elicitation,
      @Nullable Supplier<List<Root>> roots,
      @Nullable HostedTasks hosted) {
    this.sampling = sampling;
    this.elicitation = elicitation;
    this.roots = roots;
    this.hosted = hosted;
  }

  HostedTasks hosted() {
    if (hosted == null) {
      throw McpException.methodNotFound("tasks/*"); // declared through capabilities() only
    }
    return hosted;
  }

  /**
   * A {@code sampling/createMessage}: run as a task when it is task-augmented and this client
   * hosts tasks (MCP 2025-11-25 basic/utilities/tasks: a receiver that did not declare task
   * support for the request processes it normally and ignores {@code task}).
   */
  private Object sampleOrTask(CreateMessageParams p, InboundCall call) throws Exception {
    dev.herald.wire.TaskMetadata task = p.task();
    if (task != null && hosted != null && sampling != null) {
      SamplingHandler h = sampling;
      return hosted.create(call, task, ctx -> nonNull(h.createMessage(p, ctx)));
    }
    return sample(p, call);
  }

  /** An {@code elicitation/create}, run as a task when task-augmented (see {@link #sampleOrTask}). */
  private Object elicitOrTask(ElicitParams p, InboundCall call) throws Exception {
    dev.herald.wire.TaskMetadata task = p.task();
    if (task != null && hosted != null && elicitation != null) {
      ElicitationHandler h = elicitation;
      return hosted.create(
          call,
          task,
          ctx -> ElicitationDefaults.apply(p.requestedSchema(), nonNull(h.elicit(p, ctx))));
    }
    return elicit(p, call);
  }

  /** The client's table with the user's interceptors in front of Herald's gates. */
  static MethodTable<McpClient> table(List<Interceptor<McpClient>> interceptors) {
    return MethodTable.of(ROWS, interceptors, new Role());
  }

  private CreateMessageResult sample(CreateMessageParams p, InboundCall call) throws Exception {
    if (sampling == null) {
      throw McpException.methodNotFound(
          call.method()); // declared through capabilities(), no handler given
    }
    return nonNull(sampling.createMessage(p, context(call)));
  }

  private ElicitResult elicit(ElicitParams p, InboundCall call) throws Exception {
    if (elicitation == null) {
      throw McpException.methodNotFound(call.method());
    }
    return ElicitationDefaults.apply(
        p.requestedSchema(), nonNull(elicitation.elicit(p, context(call))));
  }

  private ListRootsResult roots() {
    if (roots == null) {
      throw McpException.methodNotFound(McpMethods.ROOTS_LIST);
    }
    return ListRootsResult.of(roots.get());
  }

  // ---------------------------------------------------------------- 2026-07-28 input requests

  /**
   * Answers an {@code elicitation/create} input request of an {@code input_required} result with
   * the same handler as a handshake-era server's request.
   *
   * @throws IllegalStateException when the host gave no elicitation handler
   */
  ElicitResult elicitInput(String key, ElicitParams p, ClientRequestContext context)
      throws Exception {
    if (elicitation == null) {
      throw missing(key, McpMethods.ELICITATION_CREATE, "elicitation");
    }
    return ElicitationDefaults.apply(p.requestedSchema(), nonNull(elicitation.elicit(p, context)));
  }

  /** Answers a {@code sampling/createMessage} input request (see {@link #elicitInput}). */
  CreateMessageResult sampleInput(String key, CreateMessageParams p, ClientRequestContext context)
      throws Exception {
    if (sampling == null) {
      throw missing(key, McpMethods.SAMPLING_CREATE_MESSAGE, "sampling");
    }
    return nonNull(sampling.createMessage(p, context));
  }

  /** Answers a {@code roots/list} input request (see {@link #elicitInput}). */
  ListRootsResult rootsInput(String key) {
    if (roots == null) {
      throw missing(key, McpMethods.ROOTS_LIST, "roots");
    }
    return ListRootsResult.of(roots.get());
  }

  private static IllegalStateException missing(String key, String method, String handler) {
    return new IllegalStateException(
        "the server asked for "
            + method
            + " input (key \""
            + key
            + "\") but this client has no "
            + handler
            + " handler; give McpClient.Builder."
            + handler
            + "(...) one");
  }

  private static <T> T nonNull(@Nullable T result) {
    if (result == null) {
      throw McpException.internal("the host's handler returned no result");
    }
    return result;
  }

  private static ClientRequestContext context(InboundCall call) {
    return new ClientRequestContext() {
      @Override
      public RequestId requestId() {
        return call.id();
      }

      @Override
      public CancellationToken cancellation() {
        return call.cancellation();
      }

      @Override
      public ProgressReporter progress() {
        return call.progress();
      }
    };
  }

  /** What the table asks a client: the version its session negotiated, what it declared. */
  private static final class Role implements MethodTable.Role<McpClient> {
    @Override
    public @Nullable ProtocolVersion version(McpClient client, InboundCall call) {
      return call.session().version().orElse(null);
    }

    @Override
    public boolean initialized(McpClient client) {
      return true; // a client receives requests only on a session it opened with initialize
    }

    @Override
    public boolean declared(McpClient client, Capability capability, InboundCall call) {
      return switch (capability) {
        case Capability.OfClient c -> c.declaredIn().test(client.capabilities());
        case Capability.OfServer s ->
            client.isInitialized() && s.declaredIn().test(client.serverCapabilities());
      };
    }

    @Override
    public boolean declaredForNotification(McpClient client, Capability capability) {
      return switch (capability) {
        case Capability.OfClient c -> true;
        case Capability.OfServer s -> {
          ServerCapabilities announced = client.announced();
          yield announced != null && s.declaredIn().test(announced);
        }
      };
    }
  }
}
