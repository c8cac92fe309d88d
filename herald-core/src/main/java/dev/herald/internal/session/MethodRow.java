package dev.herald.internal.session;

import dev.herald.wire.ProtocolVersion;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One MCP method a role answers: its name, params and result types, whether it is a request or a
 * notification, the protocol versions in which it exists (read from {@link ProtocolVersion}), the
 * capability that must have been declared (and by whom), whether it may arrive before the {@code
 * initialize} handshake completes, and its handler. A {@link MethodTable} is a list of these;
 * adding a method to a role is adding one row.
 *
 * @param <S> what requests arrive on (a server session, a client)
 * @param <P> the params type; {@code Void} for a method without params
 * @param <R> the result type ({@code Void} for a notification)
 */
public record MethodRow<S, P, R>(
    String method,
    Kind kind,
    Class<P> paramsType,
    Class<R> resultType,
    Set<ProtocolVersion> versions,
    @Nullable Capability capability,
    boolean beforeInitialized,
    Handler<S, P, R> handler) {

  /** Requests are answered; notifications are not. */
  public enum Kind {
    REQUEST,
    NOTIFICATION
  }

  /**
   * A method's handler: decoded params in, result out. Runs on the request's virtual thread (a
   * notification's on the session's notification thread).
   */
  @FunctionalInterface
  public interface Handler<S, P, R> {
    /**
     * Answers one request (or takes one notification).
     *
     * @param params the decoded params, never null except for a {@code Void} row, whose handler
     *     ignores them
     * @throws dev.herald.wire.McpException to answer with that error
     * @throws Exception anything else is answered by the one exception translation
     */
    @Nullable R handle(S session, P params, InboundCall call) throws Exception;
  }

  public MethodRow {
    Objects.requireNonNull(method, "method");
    versions =
        java.util.Collections.unmodifiableSet(
            versions.isEmpty() ? EnumSet.noneOf(ProtocolVersion.class) : EnumSet.copyOf(versions));
  }

  /** Starts a request row. */
  public static <P, R> Builder<P, R> request(String method, Class<P> params, Class<R> result) {
    return new Builder<>(method, Kind.REQUEST, params, result);
  }

  /** Starts a notification row. */
  public static <P> Builder<P, Void> notification(String method, Class<P> params) {
    return new Builder<>(method, Kind.NOTIFICATION, params, Void.class);
  }

  /** Whether the method exists in {@code version}. */
  public boolean existsIn(ProtocolVersion version) {
    return versions.contains(version);
  }

  /** Builds one row; the versions default to all of them. */
  public static final class Builder<P, R> {
    private final String method;
    private final Kind kind;
    private final Class<P> params;
    private final Class<R> result;
    private Predicate<ProtocolVersion> existsIn = v -> true;
    private @Nullable Capability capability;
    private boolean beforeInitialized;

    private Builder(String method, Kind kind, Class<P> params, Class<R> result) {
      this.method = method;
      this.kind = kind;
      this.params = params;
      this.result = result;
    }

    /** The versions in which the method exists, as a question to the version table. */
    public Builder<P, R> in(Predicate<ProtocolVersion> existsIn) {
      this.existsIn = existsIn;
      return this;
    }

    public Builder<P, R> needs(Capability capability) {
      this.capability = capability;
      return this;
    }

    /** The method may arrive before the handshake completes ({@code initialize}, {@code ping}). */
    public Builder<P, R> beforeInitialized() {
      this.beforeInitialized = true;
      return this;
    }

    /** Ends a notification row: {@code body} gets the session and the decoded params. */
    public <S> MethodRow<S, P, R> receiver(java.util.function.BiConsumer<S, P> body) {
      return handler((s, p, call) -> {
        body.accept(s, p);
        return null;
      });
    }

    public <S> MethodRow<S, P, R> handler(Handler<S, P, R> handler) {
      Set<ProtocolVersion> versions = EnumSet.noneOf(ProtocolVersion.class);
      Arrays.stream(ProtocolVersion.values()).filter(existsIn).forEach(versions::add);
      return new MethodRow<>(
          method, kind, params, result, versions, capability, beforeInitialized, handler);
    }
  }
}
