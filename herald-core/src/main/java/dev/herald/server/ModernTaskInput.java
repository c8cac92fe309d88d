package dev.herald.server;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressReporter;
import dev.herald.tasks.StoredTask;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a task asks for input in the 2026-07-28 {@code io.modelcontextprotocol/tasks} extension
 * (SEP-2663, "Input Requests"): an ask records its input requests on the task in the store
 * ({@code input_required}, every outstanding request listed by {@code tasks/get} and {@code
 * notifications/tasks}) and blocks until {@code tasks/update} answers it; the task returns to
 * {@code working} once nothing is outstanding.
 *
 * <p>Design note. The requests are stored (what any node can show); the waiting is per node (a
 * future per outstanding key, here). Keys are unique over the task's life (the extension
 * requires it): a key the handler names is used as is the first time and suffixed after, a
 * derived one counts up ({@code elicitation-1}, ...). {@link #take} claims the answers to
 * outstanding keys under the lock, so two racing {@code tasks/update}s cannot answer one key
 * twice; the caller stores {@link StoredTask#answered} first and then {@link #deliver}s, so a
 * {@code tasks/get} after the acknowledgement never lists an answered key. Answers to unknown or
 * answered keys are ignored; an answer of the wrong shape to an outstanding key is -32602 and
 * leaves it outstanding. An ask waits until answered, or until the task is cancelled or expires
 * (the runtime interrupts the handler): the call options' timeouts do not apply to a task.
 *
 * <p>Thread-safe: {@code lock} guards the outstanding futures and the keys used.
 */
final class ModernTaskInput implements TaskInput {
  private final TaskRuntime runtime;
  private final RunningTask task;
  private final ModernTaskProgress progress;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Pending> pending = new LinkedHashMap<>(); // guarded by lock
  private final Set<String> used = new HashSet<>(); // guarded by lock
  private int ordinal; // guarded by lock

  /** One outstanding request and where its answer goes. */
  record Pending(InputRequest request, CompletableFuture<JsonNode> answer) {}

  /** An answer claimed for delivery. */
  record Claimed(Pending pending, JsonNode answer) {}

  private ModernTaskInput(TaskRuntime runtime, RunningTask task) {
    this.runtime = runtime;
    this.task = task;
    this.progress =
        new ModernTaskProgress(runtime, task.session().server().scheduler, task.taskId());
  }

  /**
   * The task's progress reporter over the request's: folded into the status message when the
   * request came on a connection of its own that is gone (a 2026-07-28 HTTP POST, {@link
   * ModernTaskProgress}); the request's own otherwise (stdio: by token on the pipe).
   */
  ProgressReporter progress(ProgressReporter request) {
    return task.session().statelessOnly() ? progress.over(request) : request;
  }

  static TaskInput.Factory factory(TaskRuntime runtime) {
    return task -> new ModernTaskInput(runtime, task);
  }

  @Override
  public <T> T ask(@Nullable String key, InputRequest request, Class<T> type, CallOptions options)
      throws InterruptedException {
    String k = key == null ? derivedKey(request) : key;
    Map<String, InputRequest> one = new LinkedHashMap<>();
    one.put(k, request);
    JsonNode answer = Objects.requireNonNull(askAll(one, options).responses().get(k));
    return type.cast(McpJson.fromTree(answer, resultType(request)));
  }

  @Override
  public InputResponses askAll(Map<String, ? extends InputRequest> requests, CallOptions options)
      throws InterruptedException {
    if (requests.isEmpty()) {
      return new InputResponses(McpJson.object()); // nothing asked, nothing to wait for
    }
    requireDeclared(requests.values());
    Map<String, String> wireKeys = new LinkedHashMap<>(); // handler key -> wire key
    Map<String, InputRequest> asked = new LinkedHashMap<>();
    Map<String, CompletableFuture<JsonNode>> futures = new LinkedHashMap<>();
    lock.lock();
    try {
      for (Map.Entry<String, ? extends InputRequest> e : requests.entrySet()) {
        String wire = unique(e.getKey());
        wireKeys.put(e.getKey(), wire);
        asked.put(wire, e.getValue());
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        futures.put(wire, f);
        pending.put(wire, new Pending(e.getValue(), f));
      }
    } finally {
      lock.unlock();
    }
    try {
      Instant now = runtime.now();
      var change = runtime.store().update(task.taskId(), now, t -> t.needInput(asked, null, now));
      if (change.isEmpty() || !change.get().changed()) {
        throw new CancelledException("task " + task.taskId() + " has ended");
      }
      ObjectNode answers = McpJson.object();
      for (Map.Entry<String, String> e : wireKeys.entrySet()) {
        answers.set(e.getKey(), await(Objects.requireNonNull(futures.get(e.getValue()))));
      }
      return new InputResponses(answers);
    } finally {
      lock.lock();
      try {
        pending.keySet().removeAll(asked.keySet());
      } finally {
        lock.unlock();
      }
    }
  }

  @Override
  public boolean canAsk(InputRequest request) {
    return ServerMethods.clientSupports(
        task.session(), ReverseCalls.capabilityOf(request), task.call());
  }

  /**
   * Claims the answers among {@code responses} to keys outstanding now (others are ignored).
   *
   * @throws McpException -32602 naming a key whose answer is not a result of its request; then
   *     nothing is claimed
   */
  Map<String, Claimed> take(InputResponses responses) {
    lock.lock();
    try {
      Map<String, Claimed> claimed = new LinkedHashMap<>();
      for (String key : responses.responses().propertyNames()) {
        Pending p = pending.get(key);
        if (p == null || p.answer().isDone()) {
          continue; // unknown, answered or superseded: ignored
        }
        JsonNode answer = responses.responses().get(key);
        check(key, p.request(), answer);
        claimed.put(key, new Claimed(p, answer));
      }
      claimed.keySet().forEach(pending::remove);
      return claimed;
    } finally {
      lock.unlock();
    }
  }

  /** Hands claimed answers to the waiting asks. */
  static void deliver(Map<String, Claimed> claimed) {
    claimed.values().forEach(c -> c.pending().answer().complete(c.answer()));
  }

  private static JsonNode await(CompletableFuture<JsonNode> f) throws InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw new CancelledException("the input request was withdrawn");
    }
  }

  private String unique(String key) {
    String k = key;
    while (!used.add(k)) {
      ordinal++;
      k = key + "." + ordinal;
    }
    return k;
  }

  private String derivedKey(InputRequest request) {
    lock.lock();
    try {
      String kind =
          switch (request) {
            case InputRequest.Elicit e -> "elicitation";
            case InputRequest.CreateMessage m -> "sampling";
            case InputRequest.ListRoots r -> "roots";
          };
      String k;
      do {
        ordinal++;
        k = kind + "-" + ordinal;
      } while (used.contains(k));
      return k;
    } finally {
      lock.unlock();
    }
  }

  private static Class<?> resultType(InputRequest request) {
    return switch (request) {
      case InputRequest.Elicit e -> dev.herald.wire.ElicitResult.class;
      case InputRequest.CreateMessage m -> dev.herald.wire.CreateMessageResult.class;
      case InputRequest.ListRoots r -> dev.herald.wire.ListRootsResult.class;
    };
  }

  private static void check(String key, InputRequest request, @Nullable JsonNode answer) {
    String why = "inputResponses[\"" + key + "\"] must be an object answering " + request.method();
    if (answer == null || !answer.isObject()) {
      throw McpException.invalidParams("Invalid params: " + why);
    }
    try {
      McpJson.fromTree(answer, resultType(request));
    } catch (McpException e) {
      throw McpException.invalidParams("Invalid params: " + why);
    }
  }

  /** -32021 naming every capability the requests need that the creating request did not declare. */
  private void requireDeclared(Iterable<? extends InputRequest> requests) {
    ReverseCalls.requireDeclared(requests, this::canAsk);
  }
}
