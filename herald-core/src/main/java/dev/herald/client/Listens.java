package dev.herald.client;

import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.transport.TransportException;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.SubscriptionsAcknowledgedParams;
import dev.herald.wire.SubscriptionsListenParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's subscriptions (MCP 2026-07-28 basic/patterns/subscriptions).
 *
 * <p>Design note. On a modern server each {@link Subscription} is one {@code subscriptions/listen}
 * request held open without a deadline; its notifications are told apart by {@code
 * _meta["io.modelcontextprotocol/subscriptionId"]} (the listen request's id), taken off the reader
 * by {@link #take} before the session engine sees them, checked against the filter (a type that
 * was not asked for is dropped) and handed to the listener on the client's listener thread; the
 * matching cache is invalidated first. The first acknowledgement completes {@link
 * Subscription#honoured()}. When the server ends the listen (a result, or {@code
 * notifications/cancelled} for its id on stdio) or its stream breaks, the listen is re-sent with a
 * new id after a backoff doubling from 100 ms to at most 30 s (reset by each acknowledgement); an
 * error that says the request itself is wrong (-32600, -32601, -32602, -32021, -32022) or the end
 * of the connection ends it for good. Closing cancels the request ({@code notifications/cancelled},
 * which an HTTP transport turns into closing the listen's stream).
 *
 * <p>In the handshake era the same API maps onto the session: list changes of the areas the
 * server declared {@code listChanged} for, and {@code resources/subscribe} for the uris when it
 * declared {@code resources.subscribe}; the acknowledgement is that honoured subset, at once.
 *
 * <p>Thread-safe. A listen's id is known only once the engine sent it, so a notification for an
 * unknown id (or a {@code notifications/cancelled} naming one) read while a listen is being sent ({@code sending > 0}) is kept in {@code early} and
 * delivered when that id is registered; {@code lock} guards {@code byId} and {@code early} and is
 * held while a notification is handed on (which only enqueues), never while sending, so the
 * listener sees a listen's notifications in arrival order.
 */
final class Listens {
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);
  private static final Duration MAX_RETRY = Duration.ofSeconds(30);
  private static final Set<Integer> FATAL =
      Set.of(
          ErrorCodes.INVALID_REQUEST,
          ErrorCodes.METHOD_NOT_FOUND,
          ErrorCodes.INVALID_PARAMS,
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
          ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
  private static final System.Logger LOG = System.getLogger("dev.herald.client");

  private final McpClient client;
  private final ConcurrentHashMap<RequestId, Listen> byId = new ConcurrentHashMap<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final java.util.concurrent.atomic.AtomicInteger sending =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Notifications for ids not registered yet, while a listen is being sent. Guarded by lock. */
  private final java.util.Map<RequestId, List<JsonRpcMessage.Notification>> early =
      new java.util.HashMap<>();

  Listens(McpClient client) {
    this.client = client;
  }

  /** Opens a subscription in the client's era. */
  Subscription open(SubscriptionFilter filter, SubscriptionListener listener)
      throws InterruptedException {
    Subscription handle = new Subscription(filter);
    if (client.era() == dev.herald.wire.ProtocolVersion.Era.MODERN) {
      Listen listen = new Listen(handle, filter, listener);
      handle.closer(listen::close);
      listen.send();
    } else {
      legacy(handle, filter, listener);
    }
    return handle;
  }

  /** How many listen requests are open (for tests). */
  int openCount() {
    return byId.size();
  }

  // ---------------------------------------------------------------- handshake era

  private void legacy(Subscription handle, SubscriptionFilter filter, SubscriptionListener listener)
      throws InterruptedException {
    ServerCapabilities caps = client.serverCapabilities();
    boolean tools = filter.wantsToolsListChanged() && caps.toolsListChanged();
    boolean prompts = filter.wantsPromptsListChanged() && caps.promptsListChanged();
    boolean resources = filter.wantsResourcesListChanged() && caps.resourcesListChanged();
    List<String> uris =
        caps.resourcesSubscribe() ? filter.resourceSubscriptionsOrEmpty() : List.of();
    List<Runnable> removals = new ArrayList<>();
    List<ResourceSubscription> subscriptions = new ArrayList<>();
    handle.closer(() -> {
      removals.forEach(Runnable::run);
      for (ResourceSubscription s : subscriptions) {
        try {
          s.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.DEBUG, "unsubscribing {0} failed: {1}", s.uri(), e);
        }
      }
    });
    if (tools) {
      removals.add(client.addListChanged(McpClient.Area.TOOLS, listener));
    }
    if (prompts) {
      removals.add(client.addListChanged(McpClient.Area.PROMPTS, listener));
    }
    if (resources) {
      removals.add(client.addListChanged(McpClient.Area.RESOURCES, listener));
    }
    try {
      for (String uri : uris) {
        subscriptions.add(client.subscribeOnSession(uri, listener::resourceUpdated));
      }
    } catch (RuntimeException | InterruptedException e) {
      handle.close();
      throw e;
    }
    SubscriptionFilter honoured =
        new SubscriptionFilter(
            tools ? Boolean.TRUE : null,
            prompts ? Boolean.TRUE : null,
            resources ? Boolean.TRUE : null,
            uris.isEmpty() ? null : uris,
            null);
    handle.acknowledged(honoured);
    client.tell(() -> listener.acknowledged(filter, honoured));
  }

  // ---------------------------------------------------------------- modern era, reader side

  /**
   * Takes a frame the engine must not see: in the 2026-07-28 era a server's request (dropped
   * unanswered: clients send no responses), a listen's notification, or the server's {@code
   * notifications/cancelled} ending a listen. Runs on the transport's reader.
   */
  boolean take(JsonRpcMessage message) {
    boolean modern = client.era() == dev.herald.wire.ProtocolVersion.Era.MODERN;
    if (message instanceof JsonRpcMessage.Request r) {
      if (modern) {
        LOG.log(
            System.Logger.Level.DEBUG,
            "dropped request {0} ({1}): a 2026-07-28 server sends no requests",
            r.id(),
            r.method());
      }
      return modern;
    }
    if (!(message instanceof JsonRpcMessage.Notification n)) {
      return false;
    }
    if (McpMethods.CANCELLED.equals(n.method())) {
      RequestId id = cancelledId(n.params());
      if (id == null) {
        return false;
      }
      Listen listen;
      lock.lock();
      try {
        listen = byId.get(id);
        if (listen == null && modern && sending.get() > 0) {
          // the server may end a listen before this client registered its id (2026-07-28
          // servers send no requests, so a cancel names a listen or nothing): keep it for then
          early.computeIfAbsent(id, k -> new ArrayList<>()).add(n);
          return true;
        }
      } finally {
        lock.unlock();
      }
      if (listen == null) {
        return false;
      }
      listen.endedByServer();
      return true;
    }
    ObjectNode meta =
        n.params() != null && n.params().get("_meta") instanceof ObjectNode m ? m : null;
    RequestId sid = MetaKeys.subscriptionId(meta);
    if (sid == null && !McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED.equals(n.method())) {
      return false;
    }
    lock.lock();
    try {
      Listen listen = sid == null ? null : byId.get(sid);
      if (listen != null) {
        listen.deliver(n);
        return true;
      }
      if (sid != null && sending.get() > 0) {
        early.computeIfAbsent(sid, k -> new ArrayList<>()).add(n);
        return true;
      }
    } finally {
      lock.unlock();
    }
    if (modern) {
      LOG.log(
          System.Logger.Level.DEBUG, "dropped {0} for no open subscription {1}", n.method(), sid);
    }
    return modern;
  }

  private static @Nullable RequestId cancelledId(@Nullable ObjectNode params) {
    try {
      return McpJson.fromTree(params, CancelledNotificationParams.class).requestId();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** One modern subscription: its current listen request and what it asked for. */
  private final class Listen {
    private final Subscription handle;
    private final SubscriptionFilter filter;
    private final SubscriptionListener listener;
    private volatile @Nullable OutboundCall current;
    private volatile boolean serverEnded;
    private volatile boolean over;
    private volatile int failures;

    Listen(Subscription handle, SubscriptionFilter filter, SubscriptionListener listener) {
      this.handle = handle;
      this.filter = filter;
      this.listener = listener;
    }

    void send() {
      if (!handle.isOpen() || over) {
        return;
      }
      OutboundCall call;
      serverEnded = false;
      sending.incrementAndGet();
      try {
        call =
            client.send(
                McpMethods.SUBSCRIPTIONS_LISTEN,
                McpJson.toObject(SubscriptionsListenParams.of(filter)),
                CallOptions.builder().noTimeout().build());
        current = call;
        lock.lock();
        try {
          byId.put(call.id(), this);
          List<JsonRpcMessage.Notification> first = early.remove(call.id());
          if (first != null) {
            first.forEach(this::deliver);
          }
        } finally {
          lock.unlock();
        }
      } catch (TransportException e) {
        end(e);
        return;
      } finally {
        if (sending.decrementAndGet() == 0) {
          lock.lock();
          try {
            early.clear(); // nobody is sending: what is left belongs to no listen
          } finally {
            lock.unlock();
          }
        }
      }
      call.result().whenComplete((result, error) -> after(call, error));
    }

    private void after(OutboundCall call, @Nullable Throwable error) {
      byId.remove(call.id(), this);
      if (!handle.isOpen() || over) {
        return;
      }
      Throwable cause =
          error instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : error;
      if (cause == null || serverEnded) {
        retry(); // the server ended it: listen again
        return;
      }
      if (cause instanceof McpException e && FATAL.contains(e.code())) {
        end(e);
      } else if (cause instanceof TransportException && !client.connected()) {
        end(cause);
      } else if (cause instanceof CancelledException && !serverEnded) {
        end(cause);
      } else {
        retry(); // its stream broke: listen again
      }
    }

    private void retry() {
      int n = failures;
      failures = Math.min(n + 1, 20);
      long delay = Math.min(MAX_RETRY.toNanos(), FIRST_RETRY.toNanos() << Math.min(n, 20));
      client.settings().scheduler().schedule(this::send, delay);
    }

    private void end(Throwable cause) {
      over = true;
      handle.failed(cause);
      client.tell(() -> listener.ended(cause));
    }

    /** The server tore the listen down ({@code notifications/cancelled} for its id). */
    void endedByServer() {
      serverEnded = true;
      OutboundCall call = current;
      if (call != null) {
        // no answer will come for it: end the call here (the cancel sent back is ignored)
        Thread.ofVirtual()
            .name("herald-listen-end")
            .start(() -> call.cancel("ended by the server"));
      }
    }

    void close() {
      over = true;
      OutboundCall call = current;
      if (call != null) {
        byId.remove(call.id(), this);
        call.cancel("unsubscribed");
      }
    }

    /** A notification of this listen, on the reader. */
    void deliver(JsonRpcMessage.Notification n) {
      switch (n.method()) {
        case McpMethods.CANCELLED -> endedByServer(); // read before this listen was registered
        case McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED -> {
          SubscriptionFilter honoured;
          try {
            honoured =
                McpJson.fromTree(n.params(), SubscriptionsAcknowledgedParams.class).notifications();
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "malformed acknowledgement dropped: {0}", e);
            return;
          }
          failures = 0;
          client.tell(() -> {
            handle.acknowledged(honoured);
            listener.acknowledged(filter, honoured);
          });
        }
        case McpMethods.TOOLS_LIST_CHANGED ->
            changed(McpClient.Area.TOOLS, filter.wantsToolsListChanged());
        case McpMethods.PROMPTS_LIST_CHANGED ->
            changed(McpClient.Area.PROMPTS, filter.wantsPromptsListChanged());
        case McpMethods.RESOURCES_LIST_CHANGED ->
            changed(McpClient.Area.RESOURCES, filter.wantsResourcesListChanged());
        case McpMethods.RESOURCES_UPDATED -> {
          ResourceUpdatedParams p;
          try {
            p = McpJson.fromTree(n.params(), ResourceUpdatedParams.class);
          } catch (RuntimeException e) {
            return;
          }
          if (p == null || !filter.resourceSubscriptionsOrEmpty().contains(p.uri())) {
            return; // not asked for
          }
          client.resourceChanged(p.uri());
          client.tell(() -> listener.resourceUpdated(p));
        }
        case McpMethods.TASKS_EXT_STATUS -> {
          dev.herald.wire.TasksExtension.DetailedTask task;
          try {
            task = McpJson.fromTree(n.params(), dev.herald.wire.TasksExtension.DetailedTask.class);
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "malformed task status dropped: {0}", e);
            return;
          }
          if (task == null || !filter.taskIdsOrEmpty().contains(task.taskId())) {
            return; // not asked for
          }
          JsonNode s = n.params() == null ? null : n.params().get("requestState");
          String state = s != null && s.isString() ? s.stringValue() : null;
          client.tell(() -> listener.taskStatus(task, state));
        }
        default -> LOG.log(System.Logger.Level.DEBUG, "dropped {0} on a subscription", n.method());
      }
    }

    private void changed(McpClient.Area area, boolean wanted) {
      if (!wanted) {
        return;
      }
      client.invalidate(area);
      client.tell(() -> listener.listChanged(area));
    }
  }
}
