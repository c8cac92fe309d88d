package dev.herald.client;

import dev.herald.internal.session.OutboundCall;
import dev.herald.internal.session.ProgressLease;
import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressReporter;
import dev.herald.session.Scheduler;
import dev.herald.session.TimeoutException;
import dev.herald.transport.TransportException;
import dev.herald.wire.CancelTaskParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetTaskParams;
import dev.herald.wire.GetTaskPayloadParams;
import dev.herald.wire.GetTaskResult;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputRequests;
import dev.herald.wire.InputResponses;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.TaskStatus;
import dev.herald.wire.TasksExtension;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Follows one task of a server until it is terminal, in either era, and ends its result once.
 *
 * <p>Design note. Status reaches the follower on up to three channels, and {@link #observe} merges
 * them: status notifications (2025-11-25 {@code notifications/tasks/status} on the session; the
 * 2026-07-28 extension's {@code notifications/tasks} on a {@code subscriptions/listen} filtered by
 * the task's id), {@code tasks/get} polls ({@link TaskPolling}: the server's interval, backing off
 * while nothing new arrives), and the task's own answers ({@code tasks/cancel}). A snapshot older
 * than the latest, or any after a terminal one, is dropped; the {@link TaskListener} is told each
 * change once, in order, on the client's listener thread. The outcome: in 2025-11-25 the {@code
 * tasks/result} request sent at once (MCP 2025-11-25 basic/utilities/tasks: requestors SHOULD call
 * it pre-emptively; it is also where the server sends the task's elicitation and sampling
 * requests, which the client's handlers answer), giving the original result or JSON-RPC error;
 * in 2026-07-28 the terminal {@code DetailedTask}'s inlined result or error. {@code
 * input_required} in 2026-07-28 is answered with the client's handlers and {@code tasks/update};
 * the latest {@code requestState} a notification carried goes on the next {@code tasks/get}.
 *
 * <p>Seed rules of progress for tasks: the original request's progress token stays active (a
 * {@link ProgressLease}) until the task is terminal, then the pending render is flushed before
 * the result completes; a clock that runs out sends {@code tasks/cancel}, never {@code
 * notifications/cancelled}.
 *
 * <p>Thread-safe: {@code lock} guards the snapshot state and timers and is never held while
 * sending or while user code runs.
 */
final class TaskFollower {
  private static final System.Logger LOG = System.getLogger("dev.herald.client");

  private final McpClient client;
  private final String taskId;
  private final boolean modern;
  private final TaskListener listener;
  private final @Nullable ProgressLease lease;
  private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final Token token = new Token();
  private final Scheduler scheduler;
  private final long idleNanos;
  private final long deadline;

  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private @Nullable TaskSnapshot latest;
  private final TaskPolling polling = new TaskPolling();
  private Scheduler.@Nullable Cancellable pollTimer;
  private Scheduler.@Nullable Cancellable clockTimer;
  private long lastActivity;
  private final Set<String> answered = new HashSet<>();
  private boolean answering;

  private volatile @Nullable String requestState;
  private volatile @Nullable OutboundCall resultCall;
  private volatile @Nullable Subscription listen;

  /**
   * @param startedAt ticker time the task's request was sent (its clocks run from there)
   * @param options the call's options: their clocks bound the task; null for a task resumed by id
   *     (followed without a deadline)
   */
  TaskFollower(
      McpClient client,
      String taskId,
      boolean modern,
      @Nullable TaskListener listener,
      @Nullable ProgressLease lease,
      @Nullable CallOptions options,
      long startedAt) {
    this.client = client;
    this.taskId = taskId;
    this.modern = modern;
    this.listener = listener == null ? TaskListener.NONE : listener;
    this.lease = lease;
    this.scheduler = client.settings().scheduler();
    CallOptions effective =
        options == null ? null : options.effective(client.settings().defaults());
    this.idleNanos =
        effective == null || effective.idleTimeout() == null
            ? Long.MAX_VALUE
            : effective.idleTimeout().toNanos();
    this.deadline =
        effective == null || effective.timeout() == null
            ? Long.MAX_VALUE
            : saturatedAdd(startedAt, effective.timeout().toNanos());
    this.lastActivity = client.settings().ticker().nanos();
    if (lease != null) {
      lease.onActivity(this::touch);
    }
  }

  String taskId() {
    return taskId;
  }

  CompletableFuture<JsonNode> result() {
    return result;
  }

  @Nullable TaskSnapshot latest() {
    lock.lock();
    try {
      return latest;
    } finally {
      lock.unlock();
    }
  }

  Optional<ProgressRecord> progressRecord() {
    return lease == null ? Optional.empty() : Optional.of(lease.record());
  }

  /** Starts following from what the server said when it created (or last showed) the task. */
  void start(@Nullable TaskSnapshot first, TasksExtension.@Nullable DetailedTask detailed) {
    client.following(this);
    if (modern) {
      openListen();
    } else {
      askForResult();
    }
    if (detailed != null) {
      observeDetailed(detailed);
    } else if (first != null) {
      observe(first);
    }
    armClock();
    schedulePoll();
  }

  // ---------------------------------------------------------------- status

  /** A status notification for this task (either era); the poll interval starts over. */
  void notified(
      TaskSnapshot s, TasksExtension.@Nullable DetailedTask detailed, @Nullable String state) {
    if (state != null) {
      requestState = state;
    }
    lock.lock();
    try {
      polling.heard();
    } finally {
      lock.unlock();
    }
    if (detailed != null) {
      observeDetailed(detailed);
    } else {
      observe(s);
    }
    schedulePoll();
  }

  /** Merges one snapshot; returns whether it was news. */
  boolean observe(TaskSnapshot s) {
    boolean terminal;
    lock.lock();
    try {
      TaskSnapshot was = latest;
      if (was != null && (was.terminal() || s.lastUpdatedAt().isBefore(was.lastUpdatedAt()))) {
        return false;
      }
      polling.suggested(s.pollInterval());
      if (was != null
          && was.status() == s.status()
          && java.util.Objects.equals(was.statusMessage(), s.statusMessage())) {
        latest = s;
        return false;
      }
      latest = s;
      lastActivity = client.settings().ticker().nanos();
      terminal = s.terminal();
      if (terminal && lease != null) {
        // the last progress value is rendered before the terminal status is told (the last
        // status: every earlier one was enqueued already, so the order holds)
        lease.seal(() -> client.tell(() -> listener.onStatus(s)));
      } else {
        client.tell(() -> listener.onStatus(s)); // enqueued under the lock: told in order
      }
    } finally {
      lock.unlock();
    }
    if (terminal) {
      onTerminal(s);
    }
    return true;
  }

  /** A 2026-07-28 detailed task: the snapshot, then its payload (input requests, outcome). */
  private boolean observeDetailed(TasksExtension.DetailedTask d) {
    boolean news = observe(TaskSnapshot.of(d));
    switch (d) {
      case TasksExtension.Completed c -> finish(c.result(), null, ProgressRecord.Terminal.RESPONSE);
      case TasksExtension.Failed f ->
          finish(null, McpException.fromError(f.error()), ProgressRecord.Terminal.ERROR);
      case TasksExtension.Cancelled c -> cancelled("the task was cancelled");
      case TasksExtension.InputRequired i -> answer(i.inputRequests());
      case TasksExtension.Working w -> {}
    }
    return news;
  }

  private void onTerminal(TaskSnapshot s) {
    if (s.status() == TaskStatus.CANCELLED) {
      cancelled(s.statusMessage() == null ? "the task was cancelled" : s.statusMessage());
    }
    // completed and failed: the outcome comes from tasks/result (2025-11-25) or from the
    // detailed task (2026-07-28)
  }

  private void cancelled(String why) {
    Ending e = ending;
    if (e != null) {
      finish(null, e.failure(), e.how()); // our own cancel or clock, whose answer came first
    } else {
      finish(null, new CancelledException(why), ProgressRecord.Terminal.CANCELLED);
    }
  }

  /** How the follower ends when the task turns cancelled because this side asked. */
  private record Ending(Throwable failure, ProgressRecord.Terminal how) {}

  private volatile @Nullable Ending ending;

  // ---------------------------------------------------------------- polling

  private void schedulePoll() {
    lock.lock();
    try {
      if (finished.get()) {
        return;
      }
      if (pollTimer != null) {
        pollTimer.cancel();
      }
      pollTimer = scheduler.schedule(this::poll, polling.next().toNanos());
    } finally {
      lock.unlock();
    }
  }

  private void poll() {
    if (finished.get()) {
      return;
    }
    OutboundCall call;
    try {
      call = client.send(McpMethods.TASKS_GET, getParams(), quick());
    } catch (TransportException e) {
      transportLost(e);
      return;
    }
    call.result()
        .whenComplete((node, error) -> {
          if (error != null) {
            Throwable cause = unwrap(error);
            if (cause instanceof McpException e && e.code() == ErrorCodes.INVALID_PARAMS) {
              // the task is gone (expired, or never the caller's)
              finish(null, e, ProgressRecord.Terminal.ERROR);
              return;
            }
            quiet();
            return;
          }
          boolean news;
          try {
            news =
                modern
                    ? observeModernGet(node)
                    : observe(TaskSnapshot.of(McpJson.resultFromTree(node, GetTaskResult.class)));
          } catch (RuntimeException e) {
            LOG.log(
                System.Logger.Level.DEBUG, "unreadable tasks/get answer for {0}: {1}", taskId, e);
            news = false;
          }
          if (news) {
            lock.lock();
            try {
              polling.heard();
            } finally {
              lock.unlock();
            }
            schedulePoll();
          } else {
            quiet();
          }
        });
  }

  private boolean observeModernGet(JsonNode node) {
    TasksExtension.DetailedTask d = McpJson.resultFromTree(node, TasksExtension.DetailedTask.class);
    return observeDetailed(d);
  }

  private void quiet() {
    lock.lock();
    try {
      polling.quietPoll();
    } finally {
      lock.unlock();
    }
    schedulePoll();
  }

  private ObjectNode getParams() {
    ObjectNode p = McpClient.objectOf(GetTaskParams.of(taskId));
    String state = requestState;
    if (modern && state != null) {
      p.put("requestState", state);
    }
    return p;
  }

  /** Options of the follower's own small requests: no progress, a bounded wait. */
  private static CallOptions quick() {
    return CallOptions.builder().timeout(Duration.ofSeconds(30)).build();
  }

  // ---------------------------------------------------------------- 2025-11-25: tasks/result

  /** Sends {@code tasks/result} at once; its answer is the task's outcome. */
  private void askForResult() {
    if (finished.get()) {
      return;
    }
    OutboundCall call;
    try {
      call =
          client.send(
              McpMethods.TASKS_RESULT,
              McpJson.toObject(GetTaskPayloadParams.of(taskId)),
              CallOptions.builder().noTimeout().build());
    } catch (TransportException e) {
      transportLost(e);
      return;
    }
    resultCall = call;
    call.result()
        .whenComplete((node, error) -> {
          if (finished.get()) {
            return;
          }
          Thread.ofVirtual().name("herald-task-result").start(() -> outcome(node, error));
        });
  }

  private void outcome(@Nullable JsonNode node, @Nullable Throwable error) {
    Throwable cause = error == null ? null : unwrap(error);
    if (cause instanceof TransportException t) {
      if (client.connected()) {
        // the stream of tasks/result broke, not the session: ask again
        scheduler.schedule(this::askForResult, TaskPolling.DEFAULT_INTERVAL.toNanos());
      } else {
        transportLost(t);
      }
      return;
    }
    if (cause instanceof CancelledException) {
      return; // we cancelled it ourselves
    }
    // the task is terminal: make sure the listener heard so before the result completes
    TaskSnapshot seen = latest();
    if (seen == null || !seen.terminal()) {
      try {
        JsonNode got = awaitNode(client.send(McpMethods.TASKS_GET, getParams(), quick()).result());
        observe(TaskSnapshot.of(McpJson.resultFromTree(got, GetTaskResult.class)));
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "tasks/get after tasks/result failed: {0}", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    seen = latest();
    if (seen != null && seen.status() == TaskStatus.CANCELLED) {
      cancelled("the task was cancelled");
    } else if (cause != null) {
      finish(null, cause, ProgressRecord.Terminal.ERROR);
    } else {
      finish(node, null, ProgressRecord.Terminal.RESPONSE);
    }
  }

  private static JsonNode awaitNode(CompletableFuture<JsonNode> f) throws InterruptedException {
    return McpClient.await(f);
  }

  // ---------------------------------------------------------------- 2026-07-28: listen, input

  private void openListen() {
    try {
      listen =
          client.listen(
              new SubscriptionFilter(null, null, null, null, List.of(taskId)),
              new SubscriptionListener() {
                @Override
                public void taskStatus(
                    TasksExtension.DetailedTask task, @Nullable String requestState) {
                  if (taskId.equals(task.taskId())) {
                    notified(TaskSnapshot.of(task), task, requestState);
                  }
                }
              });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "no listen for task {0}: {1}", taskId, e);
    }
  }

  /** Answers the input requests not answered yet with the client's handlers, then tasks/update. */
  private void answer(InputRequests requests) {
    Map<String, InputRequest> todo = new LinkedHashMap<>();
    lock.lock();
    try {
      if (answering) {
        return; // the answers in flight cover them; a later status shows what is left
      }
      for (String key : requests.keys()) {
        InputRequest r = requests.get(key);
        if (r != null && !answered.contains(key)) {
          todo.put(key, r);
        }
      }
      if (todo.isEmpty()) {
        return;
      }
      answering = true;
      answered.addAll(todo.keySet());
    } finally {
      lock.unlock();
    }
    Thread.ofVirtual()
        .name("herald-task-input")
        .start(() -> {
          try {
            Map<String, Object> responses = new LinkedHashMap<>();
            for (Map.Entry<String, InputRequest> e : todo.entrySet()) {
              token.throwIfCancelled();
              responses.put(e.getKey(), McpJson.toTree(inputAnswer(e.getKey(), e.getValue())));
            }
            token.throwIfCancelled();
            awaitNode(
                client
                    .send(
                        McpMethods.TASKS_UPDATE,
                        McpJson.toObject(
                            TasksExtension.UpdateTaskParams.of(
                                taskId, InputResponses.of(responses))),
                        quick())
                    .result());
            lock.lock();
            try {
              polling.heard();
            } finally {
              lock.unlock();
            }
            schedulePoll();
          } catch (CancelledException e) {
            // the task was cancelled while the host was asked
          } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "answering task {0} failed: {1}", taskId, e);
            finish(null, e, ProgressRecord.Terminal.ERROR);
          } finally {
            lock.lock();
            try {
              answering = false;
            } finally {
              lock.unlock();
            }
          }
        });
  }

  private Object inputAnswer(String key, InputRequest request) throws Exception {
    ClientRequestContext context =
        new ClientRequestContext() {
          @Override
          public RequestId requestId() {
            return RequestId.of(taskId);
          }

          @Override
          public CancellationToken cancellation() {
            return token;
          }

          @Override
          public ProgressReporter progress() {
            return ProgressReporter.NONE;
          }
        };
    ClientMethods answers = client.answers();
    return switch (request) {
      case InputRequest.Elicit e -> answers.elicitInput(key, e.params(), context);
      case InputRequest.CreateMessage m -> answers.sampleInput(key, m.params(), context);
      case InputRequest.ListRoots r -> answers.rootsInput(key);
    };
  }

  // ---------------------------------------------------------------- clocks and cancel

  private void touch(long now) {
    lock.lock();
    try {
      lastActivity = now;
    } finally {
      lock.unlock();
    }
  }

  private void armClock() {
    lock.lock();
    try {
      if (finished.get() || (deadline == Long.MAX_VALUE && idleNanos == Long.MAX_VALUE)) {
        return;
      }
      long now = client.settings().ticker().nanos();
      long idleAt =
          idleNanos == Long.MAX_VALUE ? Long.MAX_VALUE : saturatedAdd(lastActivity, idleNanos);
      long next = Math.min(idleAt, deadline);
      clockTimer = scheduler.schedule(this::checkClock, Math.max(0, next - now));
    } finally {
      lock.unlock();
    }
  }

  private void checkClock() {
    if (finished.get()) {
      return;
    }
    long now = client.settings().ticker().nanos();
    TimeoutException.Clock which;
    lock.lock();
    try {
      if (deadline != Long.MAX_VALUE && now - deadline >= 0) {
        which = TimeoutException.Clock.ABSOLUTE;
      } else if (idleNanos != Long.MAX_VALUE && now - saturatedAdd(lastActivity, idleNanos) >= 0) {
        which = TimeoutException.Clock.IDLE;
      } else {
        which = null;
      }
    } finally {
      lock.unlock();
    }
    if (which == null) {
      armClock();
      return;
    }
    String reason = which == TimeoutException.Clock.IDLE ? "idle timeout" : "timeout";
    Ending timedOut =
        new Ending(
            new TimeoutException(which, "task " + taskId + " timed out (" + reason + ")"),
            which == TimeoutException.Clock.IDLE
                ? ProgressRecord.Terminal.TIMEOUT_IDLE
                : ProgressRecord.Terminal.TIMEOUT_ABSOLUTE);
    ending = timedOut;
    Thread.ofVirtual()
        .name("herald-task-timeout")
        .start(() -> {
          cancelOnWire(reason);
          finish(null, timedOut.failure(), timedOut.how());
        });
  }

  /**
   * Cancels the task: {@code tasks/cancel} when the server allows it (2025-11-25: it declared
   * {@code tasks.cancel}; 2026-07-28: always), never {@code notifications/cancelled}; then the
   * result fails with {@link CancelledException}. Returns false if the task had already ended.
   */
  boolean cancel(String reason) {
    if (finished.get()) {
      return false;
    }
    ending = new Ending(new CancelledException(reason), ProgressRecord.Terminal.CANCELLED);
    boolean ended = cancelOnWire(reason);
    if (ended) {
      return false; // the server says it was already terminal: its outcome stands
    }
    cancelled(reason);
    return true;
  }

  /** Sends tasks/cancel when allowed and waits briefly; true if the task had already ended. */
  private boolean cancelOnWire(String reason) {
    token.cancelNow(reason);
    if (!modern && !client.serverDeclaresTaskCancel()) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "the server did not declare tasks.cancel: task {0} is only abandoned",
          taskId);
      return false;
    }
    try {
      JsonNode node =
          client
              .send(McpMethods.TASKS_CANCEL, McpJson.toObject(CancelTaskParams.of(taskId)), quick())
              .result()
              .get(10, TimeUnit.SECONDS);
      if (!modern && node != null && node.has("status")) {
        observe(TaskSnapshot.of(McpJson.resultFromTree(node, GetTaskResult.class)));
      }
      return false;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof McpException m && m.code() == ErrorCodes.INVALID_PARAMS) {
        TaskSnapshot seen = latest();
        return (seen != null && seen.terminal()) || resultSettling();
      }
      LOG.log(System.Logger.Level.DEBUG, "tasks/cancel {0} failed: {1}", taskId, cause);
      return false;
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "tasks/cancel {0} failed: {1}", taskId, e);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether an outcome is on its way (tasks/result answered or a terminal status came). */
  private boolean resultSettling() {
    OutboundCall call = resultCall;
    return call != null && call.result().isDone();
  }

  private void transportLost(Throwable cause) {
    finish(null, cause, ProgressRecord.Terminal.CONNECTION_CLOSED);
  }

  /**
   * Ends the follower once: timers stop, the listen and {@code tasks/result} are dropped, the
   * progress token closes (its last value rendered), then the result completes.
   */
  void finish(@Nullable JsonNode value, @Nullable Throwable failure, ProgressRecord.Terminal how) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    lock.lock();
    try {
      if (pollTimer != null) {
        pollTimer.cancel();
      }
      if (clockTimer != null) {
        clockTimer.cancel();
      }
    } finally {
      lock.unlock();
    }
    token.cancelNow("the task ended");
    client.unfollow(this);
    Subscription s = listen;
    if (s != null) {
      s.close();
    }
    OutboundCall pending = resultCall;
    if (pending != null && !pending.result().isDone()) {
      // never notifications/cancelled for a task: just stop waiting on our side
      pending.result().cancel(false);
    }
    Runnable complete =
        () -> {
          if (failure != null) {
            result.completeExceptionally(failure);
          } else {
            result.complete(value);
          }
        };
    if (lease != null) {
      lease.close(how, complete);
    } else {
      complete.run();
    }
  }

  boolean isDone() {
    return finished.get();
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : t;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  /** Trips when the task ends or is cancelled, so a handler asking the user can stop. */
  private static final class Token extends CancellationToken {
    void cancelNow(String reason) {
      if (!isCancelled()) {
        cancel(reason);
      }
    }
  }
}
