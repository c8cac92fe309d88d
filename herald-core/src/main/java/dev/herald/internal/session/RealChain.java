package dev.herald.internal.session;

import dev.herald.session.CancellationToken;
import dev.herald.session.Interceptor;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One position in a request's interceptor chain (OkHttp's {@code RealInterceptorChain} is the
 * model): {@link #proceed()} hands a fresh chain, one position further, to the next interceptor,
 * and refuses a second call from the same interceptor. Confined to the request's virtual thread.
 */
final class RealChain<S> implements Interceptor.Chain<S> {
  private final List<Interceptor<S>> interceptors;
  private final int index;
  private final S session;
  private final InboundCall call;
  private final @Nullable ProtocolVersion version;
  private final @Nullable MethodRow<S, ?, ?> row;
  private int calls;

  RealChain(
      List<Interceptor<S>> interceptors,
      int index,
      S session,
      InboundCall call,
      @Nullable ProtocolVersion version,
      @Nullable MethodRow<S, ?, ?> row) {
    this.interceptors = interceptors;
    this.index = index;
    this.session = session;
    this.call = call;
    this.version = version;
    this.row = row;
  }

  @Override
  public S session() {
    return session;
  }

  @Override
  public String method() {
    return call.method();
  }

  @Override
  public RequestId id() {
    return call.id();
  }

  @Override
  public @Nullable ObjectNode params() {
    return call.params();
  }

  @Override
  public @Nullable ObjectNode meta() {
    return call.meta();
  }

  @Override
  public Optional<ProtocolVersion> protocolVersion() {
    return Optional.ofNullable(version);
  }

  @Override
  public CancellationToken cancellation() {
    return call.cancellation();
  }

  @Override
  public Optional<dev.herald.auth.Principal> principal() {
    return Optional.ofNullable(call.principal());
  }

  @Override
  public Optional<String> sessionId() {
    return call.session().sessionId();
  }

  @Override
  public JsonNode proceed() throws Exception {
    if (index >= interceptors.size()) {
      throw new IllegalStateException(
          "the last interceptor (" + name(index - 1) + ") must not call proceed()");
    }
    if (++calls > 1) {
      throw new IllegalStateException(
          "interceptor "
              + name(index - 1)
              + " must call proceed() exactly once, called it "
              + calls
              + " times");
    }
    Interceptor<S> next = interceptors.get(index);
    JsonNode result =
        next.intercept(new RealChain<>(interceptors, index + 1, session, call, version, row));
    if (result == null) {
      throw new IllegalStateException(
          "interceptor " + name(index) + " returned null; return a result or throw McpException");
    }
    return result;
  }

  private String name(int i) {
    return i < 0 ? "(none)" : interceptors.get(i).getClass().getName();
  }

  InboundCall call() {
    return call;
  }

  @Nullable ProtocolVersion version() {
    return version;
  }

  /** The request's row; only Herald's gates after the method gate call this, so it is present. */
  @SuppressWarnings("NullAway")
  MethodRow<S, ?, ?> row() {
    return row;
  }

  /** The row, or {@code null} for an unknown method (the method gate's question). */
  @Nullable MethodRow<S, ?, ?> rowOrNull() {
    return row;
  }
}
