package dev.herald.internal.session;

import dev.herald.session.Interceptor;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A role's method table and the interceptor chain every inbound request runs through.
 *
 * <p>Design note (MCP specification, "Lifecycle", "Capability Negotiation", "Versioning"). One
 * table per role, one {@link MethodRow} per method; one table per server or client, shared by
 * all its sessions (a session holds no copy). Era routing comes first: before any interceptor,
 * {@link Role#version} decides the request's protocol version (and may refuse the request, e.g.
 * a 2026-07-28 request with malformed {@code _meta}). A request then runs through: the role's own
 * {@link Role#front front} interceptors, the user's interceptors in order, then Herald's gates, each an {@link Interceptor} too: the method gate (a method not in
 * the table, or not in the request's protocol version, is -32601), the lifecycle gate (-32600
 * before the handshake, except for rows marked {@code beforeInitialized}), the capability gate
 * (-32601 when the capability the row names was not declared, as the specification's
 * MethodNotFoundError says), the authorization step ({@link Role#authorize}: per-entry scopes); then the invoker decodes the params into the row's params type
 * (-32602 on failure, from {@link McpJson#fromTree}), calls the handler and encodes its result.
 * What an exception becomes on the wire is decided after the chain, once, by {@link
 * ExceptionTranslation}. The chain contract is checked the way OkHttp's {@code
 * RealInterceptorChain} does: {@code proceed()} twice or a {@code null} result fails with a
 * message naming the interceptor.
 *
 * <p>One method name may have several request rows when their versions do not overlap (the
 * 2025-11-25 {@code tasks/get} and the 2026-07-28 tasks extension's): the request's version picks
 * the row, before the chain runs, so every gate and interceptor sees the one that serves it.
 *
 * <p>Notification rows are handed to the engine's notification registry ({@link
 * #registerNotifications}); they do not run through the chain, a row's capability is checked
 * against what the peer declared (an undeclared one is dropped and reported), and their versions
 * are not checked yet (an unknown notification is dropped by the engine, never answered). Outbound
 * notifications do not run through a chain either: they are gated by the role's notification
 * gate and, when fanned out, encoded once for every session, which a per-message chain would
 * undo.
 *
 * <p>Thread-safe and immutable once built.
 *
 * @param <S> what requests arrive on (a server session, a client)
 */
public final class MethodTable<S> {
  private final Map<String, List<MethodRow<S, ?, ?>>> requests;
  private final Map<String, MethodRow<S, ?, ?>> notifications;
  private final List<Interceptor<S>> chain;
  private final Role<S> role;

  /**
   * What the table asks the role about one request: its protocol version, whether the handshake
   * is done, and whether a capability was declared. The capability question is one function so
   * that per-request client capabilities (2026-07-28 {@code _meta}) can be added to it as an
   * additive layer without touching the table.
   */
  public interface Role<S> {
    /**
     * Era routing: the request's protocol version, or {@code null} while none is known (before
     * {@code initialize}). Runs once per request, before any interceptor.
     *
     * @throws dev.herald.wire.McpException to refuse the request before it reaches any
     *     interceptor (a stateless request whose {@code _meta} is missing, malformed or names a
     *     version the role does not serve)
     */
    @Nullable ProtocolVersion version(S session, InboundCall call);

    /** Whether the session is past {@code initialize}. */
    boolean initialized(S session);

    /** Whether {@code capability} was declared by the side that declares it, for this request. */
    boolean declared(S session, Capability capability, InboundCall call);

    /**
     * Whether the peer declared {@code capability}, for a notification it sent (there is no
     * request whose per-request capabilities could be read). Default: yes.
     */
    default boolean declaredForNotification(S session, Capability capability) {
      return true;
    }

    /**
     * The role's own interceptors that run first, before the user's: what must hold for every
     * result whoever produced it (the server's decoration of stateless results). Default: none.
     */
    default List<Interceptor<S>> front() {
      return List.of();
    }

    /**
     * The authorization step, after the capability gate and before the handler: throws to refuse
     * a request its principal may not make (a tool, resource or prompt whose scopes its token
     * lacks). Default: every request passes.
     *
     * @throws McpException to refuse the request
     */
    default void authorize(S session, InboundCall call) {}
  }

  private MethodTable(List<MethodRow<S, ?, ?>> rows, List<Interceptor<S>> user, Role<S> role) {
    Map<String, List<MethodRow<S, ?, ?>>> req = new HashMap<>();
    Map<String, MethodRow<S, ?, ?>> not = new HashMap<>();
    for (MethodRow<S, ?, ?> row : rows) {
      if (row.kind() == MethodRow.Kind.NOTIFICATION) {
        if (not.putIfAbsent(row.method(), row) != null) {
          throw new IllegalArgumentException("two rows for " + row.method());
        }
        continue;
      }
      List<MethodRow<S, ?, ?>> same = req.computeIfAbsent(row.method(), m -> new ArrayList<>());
      for (MethodRow<S, ?, ?> other : same) {
        if (other.versions().stream().anyMatch(row::existsIn)) {
          throw new IllegalArgumentException(
              "two rows for " + row.method() + " in the same protocol version");
        }
      }
      same.add(row);
    }
    Map<String, List<MethodRow<S, ?, ?>>> frozen = new HashMap<>();
    req.forEach((m, list) -> frozen.put(m, List.copyOf(list)));
    this.requests = Map.copyOf(frozen);
    this.notifications = Map.copyOf(not);
    this.role = role;
    List<Interceptor<S>> all = new ArrayList<>(role.front());
    all.addAll(user);
    all.add(new MethodGate<>());
    all.add(new LifecycleGate<>(role));
    all.add(new CapabilityGate<>(role));
    all.add(new AuthorizationGate<>(role));
    all.add(new Invoker<>());
    this.chain = List.copyOf(all);
  }

  /**
   * A table of {@code rows} with the user's {@code interceptors} (outermost first) in front of
   * Herald's gates.
   *
   * @throws IllegalArgumentException if two rows name the same method in the same version (or
   *     two notification rows the same method)
   */
  public static <S> MethodTable<S> of(
      List<MethodRow<S, ?, ?>> rows, List<Interceptor<S>> interceptors, Role<S> role) {
    return new MethodTable<>(
        List.copyOf(rows), List.copyOf(interceptors), Objects.requireNonNull(role, "role"));
  }

  /** The (first) request row for {@code method}, or {@code null}. */
  public @Nullable MethodRow<S, ?, ?> row(String method) {
    List<MethodRow<S, ?, ?>> rows = requests.get(method);
    return rows == null ? null : rows.get(0);
  }

  /**
   * The request row that serves {@code method} in {@code version}: the one that exists in it
   * (before {@code initialize}, in a handshake version), else the first, which the method gate
   * then refuses; {@code null} for an unknown method.
   */
  private @Nullable MethodRow<S, ?, ?> row(String method, @Nullable ProtocolVersion version) {
    List<MethodRow<S, ?, ?>> rows = requests.get(method);
    if (rows == null) {
      return null;
    }
    if (rows.size() > 1) {
      for (MethodRow<S, ?, ?> r : rows) {
        if (version != null
            ? r.existsIn(version)
            : ProtocolVersion.legacyVersions().stream().anyMatch(r::existsIn)) {
          return r;
        }
      }
    }
    return rows.get(0);
  }

  /**
   * Runs one request through the chain (on its virtual thread).
   *
   * @throws Exception what the chain threw; {@link ExceptionTranslation} decides what it becomes
   */
  public JsonNode dispatch(S session, InboundCall call) throws Exception {
    ProtocolVersion version = role.version(session, call);
    RealChain<S> first =
        new RealChain<>(chain, 0, session, call, version, row(call.method(), version));
    return first.proceed();
  }

  /**
   * Registers the notification rows with an engine being built, bound to {@code session}. A row
   * that names a capability is acted on only when the peer declared it ({@link
   * Role#declaredForNotification}); otherwise the engine drops the notification and reports it as
   * {@link dev.herald.session.EventListener.DropReason#NOT_DECLARED}.
   */
  public void registerNotifications(
      SessionEngine.Builder engine, java.util.function.Supplier<S> session) {
    for (MethodRow<S, ?, ?> row : notifications.values()) {
      engine.onNotification(row.method(), handler(row, session));
    }
  }

  /**
   * The notification rows for one session as the engine's {@link NotificationHandler.Router}: one
   * small object per session, the handler made when a notification arrives; otherwise as {@link
   * #registerNotifications}.
   */
  public NotificationHandler.Router notificationRouter(S session) {
    return method -> {
      MethodRow<S, ?, ?> row = notifications.get(method);
      return row == null ? null : handler(row, () -> session);
    };
  }

  private NotificationHandler handler(
      MethodRow<S, ?, ?> row, java.util.function.Supplier<S> session) {
    Capability needed = row.capability();
    return new NotificationHandler() {
      @Override
      public void handle(tools.jackson.databind.node.@Nullable ObjectNode params) {
        MethodTable.notify(row, session.get(), params);
      }

      @Override
      public @Nullable String missingCapability() {
        return needed == null || role.declaredForNotification(session.get(), needed)
            ? null
            : needed.name();
      }
    };
  }

  @SuppressWarnings(
      "NullAway") // a notification has no InboundCall; notification rows never read it
  private static <S, P, R> void notify(
      MethodRow<S, P, R> row, S session, tools.jackson.databind.node.@Nullable ObjectNode params) {
    try {
      row.handler().handle(session, decode(row, params), null);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("notification handler for " + row.method() + " failed", e);
    }
  }

  @SuppressWarnings(
      "NullAway") // a Void row's params are null, the only Void value; its handler ignores them
  static <P> P decode(
      MethodRow<?, P, ?> row, tools.jackson.databind.node.@Nullable ObjectNode params) {
    return row.paramsType() == Void.class ? null : McpJson.fromTree(params, row.paramsType());
  }

  /** Unknown methods and methods of another protocol version: -32601 from the table. */
  private static final class MethodGate<S> implements Interceptor<S> {
    @Override
    public JsonNode intercept(Chain<S> chain) throws Exception {
      RealChain<S> c = (RealChain<S>) chain;
      MethodRow<S, ?, ?> row = c.rowOrNull();
      if (row == null) {
        throw McpException.methodNotFound(chain.method());
      }
      ProtocolVersion v = c.version();
      boolean exists =
          v != null
              ? row.existsIn(v)
              : ProtocolVersion.legacyVersions().stream()
                  .anyMatch(row::existsIn); // before initialize
      if (!exists) {
        throw new McpException(
            ErrorCodes.METHOD_NOT_FOUND,
            "Method not found: "
                + chain.method()
                + (v == null
                    ? " (send initialize first)"
                    : " is not part of protocol version " + v.wire()));
      }
      return chain.proceed();
    }
  }

  /**
   * Before {@code initialize}, only rows marked {@code beforeInitialized}: -32600. A stateless
   * (2026-07-28) request has no handshake to wait for and always passes.
   */
  private record LifecycleGate<S>(Role<S> role) implements Interceptor<S> {
    @Override
    public JsonNode intercept(Chain<S> chain) throws Exception {
      RealChain<S> c = (RealChain<S>) chain;
      ProtocolVersion v = c.version();
      boolean stateless = v != null && !v.handshake(); // 2026-07-28: no handshake to wait for
      if (!stateless && !c.row().beforeInitialized() && !role.initialized(chain.session())) {
        throw new McpException(
            ErrorCodes.INVALID_REQUEST,
            "Invalid request: the session is not initialized; send initialize first");
      }
      return chain.proceed();
    }
  }

  /** A row's capability must have been declared: -32601 otherwise. */
  private record CapabilityGate<S>(Role<S> role) implements Interceptor<S> {
    @Override
    public JsonNode intercept(Chain<S> chain) throws Exception {
      RealChain<S> c = (RealChain<S>) chain;
      Capability needed = c.row().capability();
      if (needed != null && !role.declared(chain.session(), needed, c.call())) {
        String who = needed instanceof Capability.OfServer ? "server" : "client";
        throw new McpException(
            ErrorCodes.METHOD_NOT_FOUND,
            "Method not found: "
                + chain.method()
                + " (the "
                + who
                + " did not declare the "
                + needed.name()
                + " capability)");
      }
      return chain.proceed();
    }
  }

  /** The role's authorization step ({@link Role#authorize}). */
  private record AuthorizationGate<S>(Role<S> role) implements Interceptor<S> {
    @Override
    public JsonNode intercept(Chain<S> chain) throws Exception {
      role.authorize(chain.session(), ((RealChain<S>) chain).call());
      return chain.proceed();
    }
  }

  /** The end of the chain: params decoded into the row's type, the handler, the result encoded. */
  private static final class Invoker<S> implements Interceptor<S> {
    @Override
    public JsonNode intercept(Chain<S> chain) throws Exception {
      RealChain<S> c = (RealChain<S>) chain;
      return invoke(c.row(), chain.session(), c.call());
    }

    private static <S, P, R> JsonNode invoke(MethodRow<S, P, R> row, S session, InboundCall call)
        throws Exception {
      R result = row.handler().handle(session, decode(row, call.params()), call);
      if (result == null) {
        return McpJson.object();
      }
      return result instanceof JsonNode node ? node : McpJson.toTree(result);
    }
  }
}
