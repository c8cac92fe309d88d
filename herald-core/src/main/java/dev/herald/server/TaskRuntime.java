package dev.herald.server;

import dev.herald.internal.session.DetachedWork;
import dev.herald.internal.session.ExceptionTranslation;
import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.LazyLogger;
import dev.herald.session.CancelledException;
import dev.herald.session.Scheduler;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskLimitExceededException;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's task runtime, one per {@link McpServer}, era-neutral (MCP 2025-11-25
 * basic/utilities/tasks; the 2026-07-28 {@code io.modelcontextprotocol/tasks} extension).
 *
 * <p>Design note. The store ({@link TaskSettings#store}) holds what a task is; this holds what
 * runs on this node: the running tasks by id ({@link RunningTask}: thread, detached work,
 * cancellation, input). A task is created in the store before the request is answered (durable
 * creation); its handler runs on a virtual thread of its own, with a {@link TaskContext}; its end
 * is one {@link TaskStore#update} ({@link StoredTask#complete}), so when cancellation races
 * completion the store's atomic update picks exactly one terminal status and the loser's outcome
 * is dropped. The progress token of the creating request is freed (after the last progress value
 * went out) just before the terminal status is stored. Every status event comes from one store
 * listener, which wakes the waiters of {@code tasks/result}, the followers of a held-open {@code
 * tasks/get}, and the observers the eras register ({@link #observe}); events older than one
 * already seen for the same task are dropped, so observers see each task's versions in order.
 * Expired tasks are purged on the server's scheduler at a bounded cadence ({@link #PURGE_EVERY});
 * a running task whose TTL ran out is cancelled first. A session-bound task (handshake era,
 * without a principal) is cancelled when its session ends; one owned by a principal or by anyone
 * goes on.
 *
 * <p>Thread-safe.
 */
final class TaskRuntime {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.server.tasks");

  /** How often expired tasks are purged, at most. */
  static final Duration PURGE_EVERY = Duration.ofSeconds(1);

  private final TaskSettings settings;
  private final Scheduler scheduler;
  private volatile InstantSource clock = InstantSource.system();
  private final ConcurrentHashMap<String, RunningTask> running = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Waiter> terminalWaiters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> seen = new ConcurrentHashMap<>();
  private final List<Consumer<StoredTask>> observers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean purging = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.concurrent.locks.ReentrantLock storeLock =
      new java.util.concurrent.locks.ReentrantLock();
  private volatile @Nullable TaskStore store;
  private volatile Scheduler.@Nullable Cancellable purgeTimer;

  /** A {@code tasks/result} waiting for a task to end. */
  private record Waiter(TaskOwner owner, CompletableFuture<StoredTask> terminal) {}

  TaskRuntime(TaskSettings settings, Scheduler scheduler) {
    this.settings = settings;
    this.scheduler = scheduler;
  }

  // ---------------------------------------------------------------- store, clock, settings

  TaskSettings settings() {
    return settings;
  }

  /** The store, made on first use from {@link TaskSettings#store}, with the runtime listening. */
  TaskStore store() {
    TaskStore s = store;
    if (s != null) {
      return s;
    }
    storeLock.lock(); // the supplier may block (a shared store connects)
    try {
      s = store;
      if (s == null) {
        if (closed.get()) {
          throw new IllegalStateException("the server's task runtime is closed");
        }
        s = settings.store.get();
        s.listen(this::onChange);
        store = s;
      }
      return s;
    } finally {
      storeLock.unlock();
    }
  }

  Instant now() {
    return clock.instant();
  }

  /** For tests: the clock expiry is measured on. */
  void clock(InstantSource clock) {
    this.clock = clock;
  }

  /**
   * The TTL a new task gets: the requested one capped at {@link TaskSettings#maxTtl}, {@link
   * TaskSettings#defaultTtl} when none was requested (or a non-positive one).
   */
  Duration ttl(@Nullable Long requestedMillis) {
    if (requestedMillis == null || requestedMillis <= 0) {
      return settings.defaultTtl;
    }
    Duration asked = Duration.ofMillis(requestedMillis);
    return asked.compareTo(settings.maxTtl) > 0 ? settings.maxTtl : asked;
  }

  /**
   * Who owns a task created (or looked up) by this request: the principal when the {@link
   * RequestStateSettings#principal} hook names one (a digest, never the identifier), else the
   * session in the handshake era and anyone in the 2026-07-28 era.
   */
  TaskOwner owner(ServerSession session, InboundCall call) {
    String who =
        session
            .server()
            .requestStates
            .settings()
            .principal
            .apply(new CallContext(session, call, InputRound.of(session, call)));
    if (who != null) {
      return TaskOwner.principal(RequestStateCodec.digest("principal:" + who, 16));
    }
    return call.stateless() ? TaskOwner.anyone() : TaskOwner.session(session.taskSessionId());
  }

  // ---------------------------------------------------------------- lookups

  /** The task, if {@code owner} may see it and it has not expired. */
  Optional<StoredTask> find(TaskOwner owner, String taskId) {
    return store().get(owner, taskId, now());
  }

  /**
   * The task, if {@code owner} may see it.
   *
   * @throws McpException -32602 for an unknown, expired or another owner's task (all alike)
   */
  StoredTask require(TaskOwner owner, String taskId) {
    return find(owner, taskId).orElseThrow(() -> unknown(taskId));
  }

  static McpException unknown(String taskId) {
    return McpException.invalidParams("Unknown task: " + taskId);
  }

  /** The running task with that id on this node, if any (the caller checked the owner). */
  Optional<RunningTask> running(String taskId) {
    return Optional.ofNullable(running.get(taskId));
  }

  /** How many tasks run on this node now. */
  int runningCount() {
    return running.size();
  }

  /**
   * Applies {@code change} to the task atomically (the store's update), if {@code owner} may see
   * it.
   *
   * @throws McpException -32602 for an unknown, expired or another owner's task
   */
  TaskStore.Change update(
      TaskOwner owner, String taskId, Function<StoredTask, Optional<StoredTask>> change) {
    require(owner, taskId);
    Instant now = now();
    return store().update(taskId, now, change).orElseThrow(() -> unknown(taskId));
  }

  /** Sets the status message of a task that is not terminal; nothing once it is. */
  void statusMessage(String taskId, @Nullable String message) {
    Instant now = now();
    store().update(taskId, now, t -> t.withMessage(message, now));
  }

  // ---------------------------------------------------------------- status events

  /**
   * Registers an observer of every task change (creation included), in each task's version order;
   * it must return quickly. Returns the handle that removes it.
   */
  AutoCloseable observe(Consumer<StoredTask> observer) {
    observers.add(observer);
    return () -> observers.remove(observer);
  }

  /** How many observers are registered (for tests: a held-open {@code tasks/get} is one). */
  int observerCount() {
    return observers.size();
  }

  private void onChange(StoredTask t) {
    Long[] previous = new Long[1];
    seen.compute(
        t.taskId(),
        (id, last) -> {
          previous[0] = last;
          return last == null || last < t.version() ? t.version() : last;
        });
    if (previous[0] != null && previous[0] >= t.version()) {
      return; // an older change reported late: what followed it was already told
    }
    RunningTask here = previous[0] == null ? null : running.get(t.taskId());
    if (here != null) { // the creation is told by attach, once the task runs here
      here.session().engine().events().taskStatusChanged(t.taskId(), t.status());
    }
    for (Consumer<StoredTask> o : observers) {
      try {
        o.accept(t);
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "task observer failed on " + t.taskId(), e);
      }
    }
    if (t.status() == dev.herald.wire.TaskStatus.CANCELLED) {
      // Cancelled through another node sharing the store (tasks/cancel landed there): stop the
      // handler if it runs here (docs/scale-out.md). A cancel made here already did; once is
      // enough.
      RunningTask task = running.get(t.taskId());
      if (task != null) {
        task.cancel("task cancelled");
      }
    }
    if (t.terminal()) { // after the observers: the status notification precedes tasks/result
      Waiter w = terminalWaiters.remove(t.taskId());
      if (w != null) {
        w.terminal().complete(t);
      }
    }
  }

  /**
   * Completes with the task once it is terminal (at once if it already is); fails with -32602 if
   * it is unknown to {@code owner} or expires first.
   */
  CompletableFuture<StoredTask> whenTerminal(TaskOwner owner, String taskId) {
    StoredTask now = require(owner, taskId);
    if (now.terminal()) {
      return CompletableFuture.completedFuture(now);
    }
    Waiter w =
        terminalWaiters.computeIfAbsent(taskId, id -> new Waiter(owner, new CompletableFuture<>()));
    if (!w.owner().equals(owner)) {
      throw unknown(taskId); // not reachable: another owner's lookup failed above
    }
    // it may have ended between the lookup and the registration
    Optional<StoredTask> again = find(owner, taskId);
    if (again.isEmpty()) {
      terminalWaiters.remove(taskId, w);
      w.terminal().completeExceptionally(unknown(taskId));
    } else if (again.get().terminal()) {
      terminalWaiters.remove(taskId, w);
      w.terminal().complete(again.get());
    }
    return w.terminal();
  }

  // ---------------------------------------------------------------- creating and running

  /**
   * What a new task is: who owns it, the era and request that create it, its TTL, and how its
   * handler asks for input.
   */
  record Spec(
      ServerSession session,
      InboundCall call,
      TaskOwner owner,
      ProtocolVersion.Era era,
      Duration ttl,
      TaskInput.Factory input) {}

  /**
   * Creates the task in the store (durable before this returns).
   *
   * @throws McpException -32603 when the store is full ({@link TaskLimitExceededException}):
   *     nothing is created
   */
  StoredTask create(Spec spec) {
    if (closed.get()) {
      throw McpException.internal("Internal error: the server is closing");
    }
    Instant now = now();
    StoredTask task =
        StoredTask.create(
            TaskIds.next(),
            spec.owner(),
            spec.call().method(),
            spec.era(),
            now,
            spec.ttl(),
            settings.pollInterval);
    try {
      store().create(task);
    } catch (TaskLimitExceededException e) {
      throw new McpException(ErrorCodes.INTERNAL_ERROR, "Cannot create a task: " + e.getMessage());
    }
    startPurging();
    return task;
  }

  /**
   * Makes the running task of a task just created, detaching the request's work (so call it
   * before the request is answered).
   *
   * @throws IllegalStateException if the request already ended (it was cancelled)
   */
  RunningTask attach(Spec spec, StoredTask created) {
    DetachedWork work = spec.call().detach();
    RunningTask task =
        new RunningTask(
            created.taskId(),
            spec.owner(),
            spec.era(),
            spec.session(),
            spec.call(),
            work,
            created.expiresAt().orElse(null));
    task.input(spec.input().create(task));
    running.put(task.taskId(), task);
    spec.session().engine().events().taskStatusChanged(created.taskId(), created.status());
    if (spec.owner().kind() == TaskOwner.Kind.SESSION && !spec.session().engine().isOpen()) {
      endedWithSession(task); // the session ended while the task was being made
    }
    // a request cancelled before its answer went out takes the task with it; the token may trip
    // on the session's reader, which must not run the store (a user's) nor block
    work.cancellation()
        .onCancel(() ->
            Thread.ofVirtual()
                .name("herald-task-cancel")
                .start(() -> cancelStored(task, "the request was cancelled")));
    return task;
  }

  /**
   * {@link TaskStart#AT_ONCE}: creates the task, then runs {@code body} as it on a thread of its
   * own, and returns what the request is answered with ({@code answer} of the task).
   */
  Object runAtOnce(
      CallContext before, Spec spec, TaskBody body, Function<StoredTask, Object> answer) {
    StoredTask created = create(spec);
    RunningTask task;
    try {
      task = attach(spec, created);
    } catch (IllegalStateException e) {
      cancelStored(created.taskId(), "the request was cancelled");
      throw e;
    }
    TaskContext context = new TaskContext(this, before, spec, null);
    context.started(task);
    // the handler starts once the CreateTaskResult is written, so nothing of the task (progress,
    // status) reaches the client before it knows the task
    task.work()
        .afterResponse(() -> {
          Thread.currentThread().setName("herald-task-" + created.taskId());
          task.bindThread(Thread.currentThread());
          if (task.cancellation().isCancelled()) {
            finish(task, null, new CancelledException("cancelled before it started"));
          } else {
            runTask(task, context, body);
          }
        });
    return answer.apply(created);
  }

  /**
   * {@link TaskStart#WHEN_HANDLER_STARTS_IT}: runs {@code body} on a thread of its own as part of
   * the request until it calls {@link RequestContext#startTask()}; then the request is answered
   * with {@code answer} of the task while the handler goes on as the task. A handler that returns
   * (or throws) before starting the task answers the request itself: its result is returned (its
   * exception thrown) here, on the request's thread, so what the era does with a plain result
   * (an {@code InputRequiredResult} round, say) still applies.
   *
   * @throws Exception what the handler threw before it started the task
   */
  @Nullable Object runUntilStarted(
      CallContext before, Spec spec, TaskBody body, Function<StoredTask, Object> answer)
      throws Exception {
    CompletableFuture<Object> first = new CompletableFuture<>();
    TaskContext context = new TaskContext(this, before, spec, first);
    Thread t =
        Thread.ofVirtual()
            .name("herald-task-handler")
            .unstarted(() -> {
              Object result = null;
              Throwable failure = null;
              try {
                result = body.run(context);
              } catch (Throwable e) {
                failure = e;
              }
              RunningTask task = context.task();
              if (task == null) {
                if (failure != null) {
                  first.completeExceptionally(failure);
                } else {
                  first.complete(new Plain(result));
                }
                return;
              }
              finish(task, result, failure);
            });
    context.handlerThread(t);
    t.start();
    Object signal;
    try {
      signal = first.get();
    } catch (InterruptedException e) {
      t.interrupt(); // the request was cancelled: so is its handler
      throw e;
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof Exception ex) {
        throw ex;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
    return switch (signal) {
      case Plain p -> p.result();
      case StoredTask created -> answer.apply(created);
      default -> throw new IllegalStateException("unexpected " + signal);
    };
  }

  /** A handler's result before it started its task. */
  record Plain(@Nullable Object result) {}

  /** The handler of a task created at once. */
  private void runTask(RunningTask task, TaskContext context, TaskBody body) {
    Object result = null;
    Throwable failure = null;
    try {
      result = body.run(context);
    } catch (Throwable e) {
      failure = e;
    }
    finish(task, result, failure);
  }

  /**
   * The handler ended: its outcome becomes the task's, unless the task was cancelled first (then
   * it is dropped). The progress token is freed, after the last value went out, before the
   * terminal status is stored.
   */
  void finish(RunningTask task, @Nullable Object result, @Nullable Throwable failure) {
    try {
      if (task.cancellation().isCancelled()) {
        task.cancel("cancelled");
        cancelStored(task.taskId(), task.cancellation().reason());
        return;
      }
      TaskOutcome outcome;
      if (failure == null) {
        ObjectNode tree = McpJson.toObject(result);
        outcome = new TaskOutcome.Result(tree == null ? McpJson.object() : tree);
      } else if (failure instanceof McpException e) {
        outcome = new TaskOutcome.Error(e.toErrorObject());
      } else if (failure instanceof Error err && !(failure instanceof StackOverflowError)) {
        LOG.log(Level.ERROR, "task " + task.taskId() + " failed", err);
        outcome = new TaskOutcome.Error(McpException.internal("Internal error").toErrorObject());
      } else {
        outcome =
            new TaskOutcome.Error(ExceptionTranslation.errorOf(failure, task.call(), "server"));
      }
      task.work().finish(); // last progress out, token free
      Instant now = now();
      store().update(task.taskId(), now, t -> t.complete(outcome, now));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not store the outcome of task " + task.taskId(), e);
      task.cancel("internal error");
    } finally {
      running.remove(task.taskId(), task);
    }
  }

  // ---------------------------------------------------------------- cancelling

  /**
   * {@code tasks/cancel}: moves the task to {@code cancelled} (one winner against its completion),
   * then stops its handler if it runs here. Returns the change; {@link TaskStore.Change#changed()}
   * is false when the task was already terminal.
   *
   * @throws McpException -32602 for an unknown, expired or another owner's task
   */
  TaskStore.Change cancel(TaskOwner owner, String taskId, @Nullable String message) {
    Instant now = now();
    TaskStore.Change change = update(owner, taskId, t -> t.cancel(message, now));
    if (change.changed()) {
      RunningTask task = running.get(taskId);
      if (task != null) {
        task.cancel("task cancelled");
      }
    }
    return change;
  }

  private void cancelStored(RunningTask task, @Nullable String message) {
    cancelStored(task.taskId(), message);
    task.cancel(message == null ? "cancelled" : message);
  }

  private void cancelStored(String taskId, @Nullable String message) {
    if (closed.get() && store == null) {
      return;
    }
    try {
      Instant now = now();
      store().update(taskId, now, t -> t.cancel(message, now));
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "could not cancel task {0}: {1}", taskId, e.getMessage());
    }
  }

  /**
   * A session ended ({@link McpServer} tells the runtime): its session-bound running tasks can
   * never be seen again, so they are cancelled; tasks of a principal or of anyone go on.
   */
  void sessionClosed(ServerSession session) {
    if (running.isEmpty()) {
      return; // most sessions end with no task running: nothing to look through
    }
    List<RunningTask> bound =
        running.values().stream()
            .filter(t -> t.session() == session && t.owner().kind() == TaskOwner.Kind.SESSION)
            .toList();
    if (!bound.isEmpty()) {
      // called where the session ended (its reader, maybe), which must not run the store
      Thread.ofVirtual()
          .name("herald-task-session-end")
          .start(() -> bound.forEach(this::endedWithSession));
    }
  }

  /** A session-bound task can never be seen again once its session ended: cancel it. */
  private void endedWithSession(RunningTask task) {
    if (running.containsKey(task.taskId())) {
      cancelStored(task, "the session ended");
    }
  }

  // ---------------------------------------------------------------- expiry and close

  private void startPurging() {
    if (purging.compareAndSet(false, true)) {
      schedulePurge();
    }
  }

  private void schedulePurge() {
    if (!closed.get()) {
      purgeTimer = scheduler.schedule(this::purgeTick, PURGE_EVERY.toNanos());
    }
  }

  private void purgeTick() {
    Thread.ofVirtual()
        .name("herald-task-purge")
        .start(() -> {
          try {
            purge();
          } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "task purge failed: {0}", e.getMessage());
          } finally {
            schedulePurge();
          }
        });
  }

  /**
   * Cancels the running tasks whose TTL ran out, deletes every expired task from the store and
   * answers the {@code tasks/result} waiters of tasks that are gone. Returns how many were
   * deleted.
   */
  int purge() {
    if (closed.get()) {
      return 0;
    }
    Instant now = now();
    for (RunningTask task : running.values()) {
      Instant at = task.expiresAt();
      if (at != null && !now.isBefore(at)) {
        cancelStored(task, "the task expired");
        running.remove(task.taskId(), task);
      }
    }
    TaskStore s = store();
    int purged = s.purgeExpired(now);
    for (var e : terminalWaiters.entrySet()) {
      if (s.get(e.getValue().owner(), e.getKey(), now).isEmpty()
          && terminalWaiters.remove(e.getKey(), e.getValue())) {
        e.getValue().terminal().completeExceptionally(unknown(e.getKey()));
      }
    }
    if (purged > 0) {
      // forget the order of tasks that are gone (an update that changes nothing finds them)
      seen.keySet()
          .removeIf(
              id -> !running.containsKey(id) && s.update(id, now, t -> Optional.empty()).isEmpty());
    }
    return purged;
  }

  /** Cancels every running task, fails the waiters and closes the store. */
  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Scheduler.Cancellable timer = purgeTimer;
    if (timer != null) {
      timer.cancel();
    }
    TaskStore s = store;
    for (RunningTask task : running.values()) {
      if (s != null) {
        try {
          Instant now = now();
          s.update(task.taskId(), now, t -> t.cancel("the server closed", now));
        } catch (RuntimeException e) {
          LOG.log(Level.DEBUG, "could not cancel task {0}: {1}", task.taskId(), e.getMessage());
        }
      }
      task.cancel("the server closed");
    }
    running.clear();
    for (Waiter w : terminalWaiters.values()) {
      w.terminal()
          .completeExceptionally(McpException.internal("Internal error: the server closed"));
    }
    terminalWaiters.clear();
    if (s != null) {
      s.close();
    }
  }
}
