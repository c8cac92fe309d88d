package dev.herald.server;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.tasks.StoredTask;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.Implementation;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.Root;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request context of a handler that runs as a task (MCP 2025-11-25 basic/utilities/tasks; the
 * 2026-07-28 tasks extension): the same handler API as a plain call. Progress goes through the
 * original request's token (kept until the task is terminal); cancellation is the request's token,
 * which {@code tasks/cancel} trips; asks go to the era's {@link TaskInput}; {@link #taskId()} and
 * {@link #statusMessage} work. Before the task exists ({@link TaskStart#WHEN_HANDLER_STARTS_IT}
 * until {@link #startTask()}), everything is the request's own context, so its asks are the
 * request's (reverse requests, or input rounds in the 2026-07-28 era).
 *
 * <p>Thread-safe.
 */
final class TaskContext implements RequestContext {
  private final TaskRuntime runtime;
  private final CallContext before;
  private final TaskRuntime.Spec spec;
  private final @Nullable CompletableFuture<Object> first;
  private final ReentrantLock startLock = new ReentrantLock();
  private volatile @Nullable RunningTask task;
  private volatile @Nullable Thread handlerThread;

  /**
   * @param first where {@link #startTask()} hands the created task to the waiting request, or
   *     {@code null} when the task exists before the handler runs
   */
  TaskContext(
      TaskRuntime runtime,
      CallContext before,
      TaskRuntime.Spec spec,
      @Nullable CompletableFuture<Object> first) {
    this.runtime = runtime;
    this.before = before;
    this.spec = spec;
    this.first = first;
  }

  /** The running task, once there is one. */
  @Nullable RunningTask task() {
    return task;
  }

  void started(RunningTask task) {
    this.task = task;
  }

  void handlerThread(Thread t) {
    this.handlerThread = t;
  }

  @Override
  public Optional<String> taskId() {
    RunningTask t = task;
    return t == null ? Optional.empty() : Optional.of(t.taskId());
  }

  @Override
  public void statusMessage(String message) {
    RunningTask t = task;
    if (t != null) {
      runtime.statusMessage(t.taskId(), message);
    }
  }

  @Override
  public void startTask() {
    CompletableFuture<Object> f = first;
    if (f == null) {
      return;
    }
    startLock.lock();
    try {
      if (task != null || f.isDone()) {
        return;
      }
      StoredTask created = runtime.create(spec); // -32603 when the store is full
      RunningTask running;
      try {
        running = runtime.attach(spec, created);
      } catch (IllegalStateException e) {
        runtime.cancel(spec.owner(), created.taskId(), "the request was cancelled");
        throw new dev.herald.session.CancelledException("the request was cancelled");
      }
      Thread t = handlerThread;
      if (t != null) {
        running.bindThread(t);
      }
      this.task = running;
      f.complete(created);
    } finally {
      startLock.unlock();
    }
    RunningTask started = task;
    if (started != null) {
      try {
        // go on once the CreateTaskResult is written: nothing of the task may precede it
        started.work().awaitAnswered();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // cancelled meanwhile: the handler sees it
      }
    }
  }

  @Override
  public RequestId requestId() {
    return before.requestId();
  }

  @Override
  public @Nullable ObjectNode meta() {
    return before.meta();
  }

  @Override
  public ProgressReporter progress() {
    RunningTask t = task;
    if (t != null && t.input() instanceof ModernTaskInput modern) {
      return modern.progress(before.progress()); // 2026-07-28 over HTTP: the status message
    }
    return before.progress(); // the request's emitter: the detached work keeps it open
  }

  @Override
  public CancellationToken cancellation() {
    return before.cancellation(); // the request's token: tasks/cancel trips it
  }

  @Override
  public ServerSession session() {
    return before.session();
  }

  @Override
  public Optional<dev.herald.auth.Principal> principal() {
    return before.principal();
  }

  @Override
  public Optional<Implementation> clientInfo() {
    return before.clientInfo();
  }

  @Override
  public ClientCapabilities clientCapabilities() {
    return before.clientCapabilities();
  }

  @Override
  public Optional<ProtocolVersion> protocolVersion() {
    return before.protocolVersion();
  }

  @Override
  public ProtocolVersion.Era era() {
    return before.era();
  }

  @Override
  public void log(LoggingLevel level, @Nullable String logger, Object data) {
    before.log(level, logger, data);
  }

  @Override
  public boolean pollStream() {
    return task == null && before.pollStream();
  }

  @Override
  public CreateMessageResult sample(CreateMessageParams params, CallOptions options)
      throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.sample(params, options)
        : t.input()
            .ask(null, InputRequest.createMessage(params), CreateMessageResult.class, options);
  }

  @Override
  public CreateMessageResult sample(String key, CreateMessageParams params)
      throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.sample(key, params)
        : t.input()
            .ask(
                key,
                InputRequest.createMessage(params),
                CreateMessageResult.class,
                CallOptions.defaults());
  }

  @Override
  public ElicitResult elicit(ElicitParams params, CallOptions options) throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.elicit(params, options)
        : t.input().ask(null, InputRequest.elicit(params), ElicitResult.class, options);
  }

  @Override
  public ElicitResult elicit(String key, ElicitParams params) throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.elicit(key, params)
        : t.input()
            .ask(key, InputRequest.elicit(params), ElicitResult.class, CallOptions.defaults());
  }

  @Override
  public List<Root> listRoots() throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.listRoots()
        : t.input()
            .ask(null, InputRequest.listRoots(), ListRootsResult.class, CallOptions.defaults())
            .roots();
  }

  @Override
  public List<Root> listRoots(String key) throws InterruptedException {
    RunningTask t = task;
    return t == null
        ? before.listRoots(key)
        : t.input()
            .ask(key, InputRequest.listRoots(), ListRootsResult.class, CallOptions.defaults())
            .roots();
  }

  @Override
  public InputResponses ask(Map<String, ? extends InputRequest> requests)
      throws InterruptedException {
    RunningTask t = task;
    return t == null ? before.ask(requests) : t.input().askAll(requests, CallOptions.defaults());
  }

  @Override
  public boolean canAsk(InputRequest request) {
    RunningTask t = task;
    return t == null ? before.canAsk(request) : t.input().canAsk(request);
  }

  @Override
  public @Nullable String requestState() {
    return before.requestState();
  }

  @Override
  public InputResponses inputResponses() {
    return before.inputResponses();
  }
}
