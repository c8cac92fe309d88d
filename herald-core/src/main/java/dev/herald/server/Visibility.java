package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.Prompt;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.Set;

/**
 * What a principal's lists show: only the tools, resources, templates and prompts whose scopes
 * its token grants ({@link EntryScopes}; MCP 2026-07-28 lets {@code tools/list} vary by
 * authorization). A request without a principal sees everything, as before. Runs on the request's
 * thread; stateless.
 */
final class Visibility {
  private Visibility() {}

  static boolean allows(InboundCall call, Set<String> scopes) {
    return EntryScopes.allows(call.principal(), scopes);
  }

  static List<Tool> tools(ServerSession session, InboundCall call, List<Tool> all) {
    EntryScopes scopes = session.server().scopes;
    if (call.principal() == null || !scopes.varies(CatalogArea.TOOLS)) {
      return all;
    }
    return all.stream().filter(t -> allows(call, scopes.tool(t.name()))).toList();
  }

  static List<Prompt> prompts(ServerSession session, InboundCall call, List<Prompt> all) {
    EntryScopes scopes = session.server().scopes;
    if (call.principal() == null || !scopes.varies(CatalogArea.PROMPTS)) {
      return all;
    }
    return all.stream().filter(p -> allows(call, scopes.prompt(p.name()))).toList();
  }

  static List<ResourceTemplate> templates(
      ServerSession session, InboundCall call, List<ResourceTemplate> all) {
    EntryScopes scopes = session.server().scopes;
    if (call.principal() == null || !scopes.varies(CatalogArea.RESOURCES)) {
      return all;
    }
    return all.stream().filter(t -> allows(call, scopes.resource(t.uriTemplate()))).toList();
  }
}
