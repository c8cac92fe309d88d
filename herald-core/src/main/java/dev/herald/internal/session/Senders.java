package dev.herald.internal.session;

import dev.herald.session.Interceptor;
import dev.herald.transport.Transport;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Design note. The interceptors' {@link Interceptor#sending} hooks, asked by {@link
 * SessionEngine#request} for every request this side sends, on the sending thread, before the
 * request is written. A hook may put {@code _meta} entries (W3C trace context, MCP basic
 * "_meta"); the params are copied once, on the first put, so the caller's tree never changes. A
 * hook that throws is logged and skipped. The {@link Interceptor.Sent} callbacks it returns are
 * told when the call's future completes. With no interceptors the engine skips all of this.
 *
 * <p>Immutable; each {@link #ask} runs on one thread.
 */
final class Senders {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.session");

  static final Senders NONE = new Senders(List.of());

  private final List<Interceptor<?>> interceptors;

  private Senders(List<Interceptor<?>> interceptors) {
    this.interceptors = interceptors;
  }

  static Senders of(List<? extends Interceptor<?>> interceptors) {
    return interceptors.isEmpty() ? NONE : new Senders(List.copyOf(interceptors));
  }

  boolean isEmpty() {
    return interceptors.isEmpty();
  }

  /** What the hooks made of one request: the params to send and who to tell at its end. */
  record Asked(@Nullable ObjectNode params, List<Interceptor.Sent> ends) {}

  Asked ask(String method, RequestId id, @Nullable ObjectNode params, Transport transport) {
    Request request = new Request(method, id, params, transport);
    List<Interceptor.Sent> ends = List.of();
    for (Interceptor<?> i : interceptors) {
      try {
        Interceptor.Sent end = i.sending(request);
        if (end != null) {
          if (ends.isEmpty()) {
            ends = new ArrayList<>(2);
          }
          ends.add(end);
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "interceptor " + i.getClass().getName() + " threw from sending", e);
      }
    }
    return new Asked(request.params, ends);
  }

  /** Tells each of {@code ends} that the request ended; what they throw is logged. */
  static void tell(
      List<Interceptor.Sent> ends, @Nullable JsonNode result, @Nullable Throwable failure) {
    for (Interceptor.Sent end : ends) {
      try {
        end.ended(result, failure);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "interceptor's end callback threw; ignored", e);
      }
    }
  }

  /** The request as the hooks see it; copies the params on the first put. */
  private static final class Request implements Interceptor.Sending {
    private final String method;
    private final RequestId id;
    private @Nullable ObjectNode params;
    private boolean copied;
    private final Transport transport;

    Request(String method, RequestId id, @Nullable ObjectNode params, Transport transport) {
      this.method = method;
      this.id = id;
      this.params = params;
      this.transport = transport;
    }

    @Override
    public Optional<String> sessionId() {
      return transport.sessionId();
    }

    @Override
    public String method() {
      return method;
    }

    @Override
    public RequestId id() {
      return id;
    }

    @Override
    public @Nullable ObjectNode params() {
      return params;
    }

    @Override
    public void putMeta(String key, String value) {
      ObjectNode p = params;
      if (!copied) {
        p = p == null ? McpJson.object() : p.deepCopy();
        params = p;
        copied = true;
      }
      if (p == null) {
        throw new IllegalStateException("params were just made");
      }
      JsonNode meta = p.get("_meta");
      ObjectNode m;
      if (meta instanceof ObjectNode o) {
        m = o;
      } else {
        m = McpJson.object();
        p.set("_meta", m);
      }
      m.put(key, value);
    }
  }
}
