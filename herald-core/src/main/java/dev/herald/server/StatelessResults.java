package dev.herald.server;

import dev.herald.session.Interceptor;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ResultType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decorates every result of a stateless (2026-07-28) request, in one place: the first interceptor
 * of the server's chain, so a result made by a handler, by a row or by a user interceptor that
 * short-circuits is treated alike.
 *
 * <ul>
 *   <li>{@code resultType: "complete"} unless the result already names its type (an {@code
 *       input_required} result of a multi-round-trip request keeps its own; 2026-07-28
 *       basic/index "ResultType").
 *   <li>{@code ttlMs} and {@code cacheScope} from the method's {@link CacheArea} hint, on complete
 *       results only, each unless the result set it itself (2026-07-28 server/utilities/caching).
 *   <li>{@code _meta["io.modelcontextprotocol/serverInfo"]} unless present (2026-07-28
 *       basic/index "_meta").
 * </ul>
 *
 * Handshake-era results pass untouched. Runs on the request's virtual thread.
 */
final class StatelessResults implements Interceptor<ServerSession> {
  @Override
  public JsonNode intercept(Chain<ServerSession> chain) throws Exception {
    JsonNode result = chain.proceed();
    ProtocolVersion v = chain.protocolVersion().orElse(null);
    if (v == null || v.handshake() || !(result instanceof ObjectNode r)) {
      return result;
    }
    McpServer server = chain.session().server();
    ResultType.stamp(r, ResultType.COMPLETE);
    CacheArea area = CacheArea.of(chain.method());
    if (area != null && ResultType.COMPLETE.equals(ResultType.of(r))) {
      CacheHint hint = server.cacheHint(area);
      if (!r.has("ttlMs")) {
        r.put("ttlMs", hint.ttlMs());
      }
      if (!r.has("cacheScope")) {
        // an area whose entries need scopes answers each principal differently: never shared
        boolean perPrincipal = chain.principal().isPresent() && server.scopes.varies(area);
        r.put(
            "cacheScope",
            perPrincipal ? dev.herald.wire.CacheScope.PRIVATE.wire() : hint.scope().wire());
      }
    }
    JsonNode meta = r.get("_meta");
    if (meta == null || meta.isNull()) {
      meta = r.putObject("_meta");
    }
    if (meta instanceof ObjectNode m && !m.has(MetaKeys.SERVER_INFO)) {
      m.set(MetaKeys.SERVER_INFO, server.infoTree());
    }
    return r;
  }
}
