package dev.herald.opentelemetry;

import dev.herald.session.Interceptor;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes propagation fields in a request's {@code params._meta}: the OpenTelemetry
 * semantic conventions for MCP carry W3C trace context there, unprefixed ({@code traceparent},
 * {@code tracestate}, {@code baggage}), as the MCP specification's basic "_meta" section allows
 * for those keys. Only string values are read.
 */
final class MetaCarrier {
  private MetaCarrier() {}

  static final TextMapGetter<ObjectNode> GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ObjectNode meta) {
          List<String> keys = new ArrayList<>();
          meta.propertyNames().forEach(keys::add);
          return keys;
        }

        @Override
        public @Nullable String get(@Nullable ObjectNode meta, String key) {
          if (meta == null) {
            return null;
          }
          JsonNode v = meta.get(key);
          return v != null && v.isString() ? v.stringValue() : null;
        }
      };

  static final TextMapSetter<Interceptor.Sending> SETTER =
      (request, key, value) -> {
        if (request != null) {
          request.putMeta(key, value);
        }
      };
}
