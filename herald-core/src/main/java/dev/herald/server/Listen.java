package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResultType;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.SubscriptionsAcknowledgedParams;
import dev.herald.wire.SubscriptionsListenResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@code subscriptions/listen} subscription (MCP 2026-07-28 basic/patterns/subscriptions): the
 * honoured filter, what is waiting to be written, and the loop that writes it on the listen
 * request's own virtual thread.
 *
 * <p>Design note. The fan-out ({@link Listens}, called from the server's list-change debounce or
 * from {@link McpServer#notifyResourceUpdated}) never writes to a peer: it marks what is pending
 * under a short lock and signals. This listen's thread writes: first {@code
 * notifications/subscriptions/acknowledged}, then every pending notification, each tagged with
 * {@code _meta["io.modelcontextprotocol/subscriptionId"]} = the listen's request id and sent with
 * {@code relatedTo} = that id, so on Streamable HTTP it rides the listen's own stream and on stdio
 * it interleaves on the pipe. Progress and log messages never come from here.
 *
 * <p>The pending state is a bounded, coalescing queue: one bit per list area and a set of uris that
 * can only hold uris this listen subscribed to (at most {@link
 * McpServer.Builder#maxResourceSubscriptionsPerListen}). A second change of one kind before the
 * first was written is absorbed by it: both notifications say "refetch", so nothing distinct is
 * lost. A slow reader therefore costs a fixed amount of memory and blocks only its own thread,
 * never the fan-out or another listen; no overflow policy is needed.
 *
 * <p>Task status (2026-07-28 {@code io.modelcontextprotocol/tasks} extension): a listen whose
 * acknowledged {@code taskIds} name a task hears {@code notifications/tasks} for it, fed by the
 * task store's one event path ({@link Listens#taskChanged}): params = the full {@code
 * DetailedTask} ({@link TaskViews#detailed}) plus the {@code requestState} a later {@code
 * tasks/get} accepts ({@link TaskRequestStates}), tagged like the rest; the current state of each
 * named task is queued as soon as the listen is added ({@link ListenMethods}), so a listen opened
 * after its task was created misses nothing, and no version is sent twice. Only tasks this listener
 * may see ({@link ModernTasks#visible}) are ever queued; the pending tasks are one entry per task
 * id, the latest version absorbing an older one not yet written (each notification is the whole
 * task, and a terminal status is always the last), so the queue is bounded by the acknowledged
 * {@code taskIds}.
 *
 * <p>Ends in one of three ways: the client cancels (stdio {@code notifications/cancelled}, HTTP
 * closing the stream: the engine interrupts this thread and nothing more is sent); the session
 * ends (the same); or the server ends it ({@link #end}): what is pending is written, then the
 * {@code {"resultType":"complete","_meta":{subscriptionId}}} result.
 *
 * <p>Thread-safe: {@code lock} guards the pending fields; the encoded list changes are touched by
 * the listen's thread only.
 */
final class Listen {
  private final ServerSession session;
  private final InboundCall call;
  private final SubscriptionFilter honoured;
  private final Set<String> uris;
  private final Set<String> taskIds;
  private final TaskOwner owner;
  private final @Nullable String principal;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private int pendingAreas; // guarded by lock: one bit per CatalogArea ordinal
  private final LinkedHashSet<String> pendingUris = new LinkedHashSet<>(); // guarded by lock
  private final LinkedHashMap<String, StoredTask> pendingTasks =
      new LinkedHashMap<>(); // guarded by lock
  private final Map<String, Long> sentVersions = new HashMap<>(); // guarded by lock
  private boolean ending; // guarded by lock

  /** Each area's tagged list_changed, encoded on first use (listen thread only). */
  private final @Nullable EncodedMessage[] encodedListChanged =
      new EncodedMessage[CatalogArea.values().length];

  Listen(ServerSession session, InboundCall call, SubscriptionFilter honoured) {
    this(session, call, honoured, null);
  }

  /**
   * @param principal the digest of the principal the listen request was made as ({@link
   *     InputRounds#principal}), or {@code null}: which tasks it may hear about, and to whom their
   *     {@code requestState} is issued
   */
  Listen(
      ServerSession session,
      InboundCall call,
      SubscriptionFilter honoured,
      @Nullable String principal) {
    this.session = session;
    this.call = call;
    this.honoured = honoured;
    this.uris = Set.copyOf(honoured.resourceSubscriptionsOrEmpty());
    this.taskIds = Set.copyOf(honoured.taskIdsOrEmpty());
    this.principal = principal;
    this.owner = ModernTasks.owner(principal);
  }

  /** The listen request's id, which is the subscription id. */
  RequestId id() {
    return call.id();
  }

  /** What this listen honours (what its acknowledgement said). */
  SubscriptionFilter honoured() {
    return honoured;
  }

  ServerSession session() {
    return session;
  }

  boolean wants(CatalogArea area) {
    return switch (area) {
      case TOOLS -> honoured.wantsToolsListChanged();
      case PROMPTS -> honoured.wantsPromptsListChanged();
      case RESOURCES -> honoured.wantsResourcesListChanged();
    };
  }

  /** A server-wide catalog of {@code area} changed (after the debounce); never blocks. */
  void listChanged(CatalogArea area) {
    if (!wants(area)) {
      return;
    }
    lock.lock();
    try {
      pendingAreas |= 1 << area.ordinal();
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@code uri} changed; returns whether this listen subscribed to it (and will say so). Never
   * blocks.
   */
  boolean resourceUpdated(String uri) {
    if (!uris.contains(uri)) {
      return false;
    }
    lock.lock();
    try {
      pendingUris.add(uri);
      changed.signal();
    } finally {
      lock.unlock();
    }
    return true;
  }

  /**
   * A task changed (the store's event); returns whether this listen will say so: only when its
   * acknowledged {@code taskIds} name the task and it may see it. Never blocks.
   */
  boolean taskChanged(StoredTask task) {
    if (!taskIds.contains(task.taskId()) || !ModernTasks.visible(task, owner)) {
      return false;
    }
    lock.lock();
    try {
      StoredTask queued = pendingTasks.get(task.taskId());
      long sent = sentVersions.getOrDefault(task.taskId(), 0L);
      if (task.version() > sent && (queued == null || queued.version() < task.version())) {
        pendingTasks.put(task.taskId(), task);
      }
      changed.signal();
    } finally {
      lock.unlock();
    }
    return true;
  }

  /** Asks the listen to end with a {@code complete} result once what is pending is written. */
  void end() {
    lock.lock();
    try {
      ending = true;
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs on the listen request's thread: the acknowledgement, then every notification as it comes,
   * until the server ends the listen (returns the {@code complete} result) or the request is
   * cancelled (throws; the engine sends nothing for a cancelled request).
   *
   * @throws InterruptedException when the request was cancelled or its session ended
   */
  ObjectNode serve() throws InterruptedException {
    send(
        new JsonRpcMessage.Notification(
            McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
            McpJson.toObject(SubscriptionsAcknowledgedParams.of(honoured, id()))));
    while (true) {
      int areas;
      List<String> updated;
      List<StoredTask> tasks;
      boolean end;
      lock.lockInterruptibly();
      try {
        while (pendingAreas == 0 && pendingUris.isEmpty() && pendingTasks.isEmpty() && !ending) {
          changed.await();
        }
        areas = pendingAreas;
        pendingAreas = 0;
        updated = List.copyOf(pendingUris);
        pendingUris.clear();
        tasks = new ArrayList<>(pendingTasks.values());
        pendingTasks.clear();
        for (StoredTask t : tasks) {
          sentVersions.put(t.taskId(), t.version()); // bounded by the acknowledged taskIds
        }
        end = ending;
      } finally {
        lock.unlock();
      }
      for (CatalogArea area : CatalogArea.values()) {
        if ((areas & (1 << area.ordinal())) != 0) {
          send(listChangedMessage(area));
        }
      }
      for (String uri : updated) {
        send(EncodedMessage.of(resourceUpdatedMessage(uri)));
      }
      for (StoredTask task : tasks) {
        send(taskMessage(task));
      }
      if (end) {
        return completeResult(id());
      }
    }
  }

  /** {@code {"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId": id}}}. */
  static ObjectNode completeResult(RequestId id) {
    ObjectNode result = McpJson.object();
    result.put("resultType", ResultType.COMPLETE);
    result.set("_meta", SubscriptionsListenResult.of(id).meta());
    return result;
  }

  private EncodedMessage listChangedMessage(CatalogArea area) {
    EncodedMessage e = encodedListChanged[area.ordinal()];
    if (e == null) {
      ObjectNode params = McpJson.object();
      params.set("_meta", tag());
      e = EncodedMessage.of(new JsonRpcMessage.Notification(area.method(), params));
      encodedListChanged[area.ordinal()] = e;
    }
    return e;
  }

  private JsonRpcMessage resourceUpdatedMessage(String uri) {
    ObjectNode params = McpJson.object();
    params.put("uri", uri);
    params.set("_meta", tag());
    return new JsonRpcMessage.Notification(McpMethods.RESOURCES_UPDATED, params);
  }

  /** {@code notifications/tasks}: the detailed task, its {@code requestState}, the tag. */
  private JsonRpcMessage.Notification taskMessage(StoredTask task) {
    ObjectNode params = (ObjectNode) McpJson.toTree(TaskViews.detailed(task));
    params.put(
        "requestState",
        new TaskRequestStates(session.server().requestStates).mint(task, principal));
    params.set("_meta", tag());
    return new JsonRpcMessage.Notification(McpMethods.TASKS_EXT_STATUS, params);
  }

  private ObjectNode tag() {
    ObjectNode meta = McpJson.object();
    meta.set(MetaKeys.SUBSCRIPTION_ID, McpJson.toTree(id()));
    return meta;
  }

  private void send(JsonRpcMessage.Notification n) throws InterruptedException {
    send(EncodedMessage.of(n));
  }

  /** Writes on the listen's stream, unless the listen was cancelled: then nothing more goes out. */
  private void send(EncodedMessage message) throws InterruptedException {
    if (!call.running()) {
      throw new InterruptedException("subscriptions/listen " + id() + " was cancelled");
    }
    session.engine().notify(message, id());
  }
}
