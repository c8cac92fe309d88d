package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.session.CancelledException;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.ListPromptsResult;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.PromptReference;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ResourceTemplateReference;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.UnsubscribeParams;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import tools.jackson.databind.JsonNode;

/**
 * The server's resources, prompts and completions methods for one request (issue 3; spec.md 4.6,
 * 4.10). Each method first checks that the session was told the feature exists at bring-up
 * (otherwise -32601, as for any method the server does not offer), then validates params, then
 * runs the handler. Runs on the request's virtual thread.
 */
final class ServerFeatures {
  private static final System.Logger LOG = System.getLogger("dev.herald.server");

  private final McpServer server;
  private final ServerSession session;

  ServerFeatures(McpServer server, ServerSession session) {
    this.server = server;
    this.session = session;
  }

  /** Capabilities for the features here, as declared at bring-up; null members are absent. */
  static ServerCapabilities.@org.jspecify.annotations.Nullable Resources resourcesCapability(McpServer server) {
    return server.resourceCatalog.isEmpty() ? null : new ServerCapabilities.Resources(true, true);
  }

  static ServerCapabilities.@org.jspecify.annotations.Nullable ListChanged promptsCapability(McpServer server) {
    return server.promptCatalog.isEmpty() ? null : new ServerCapabilities.ListChanged(true);
  }

  static tools.jackson.databind.node.@org.jspecify.annotations.Nullable ObjectNode completionsCapability(McpServer server) {
    return server.completions.isEmpty() ? null : McpJson.object();
  }

  JsonNode handle(InboundCall call, RequestContext context) {
    return switch (call.method()) {
      case McpMethods.RESOURCES_LIST -> listResources(call);
      case McpMethods.RESOURCES_TEMPLATES_LIST -> listTemplates(call);
      case McpMethods.RESOURCES_READ -> read(call, context);
      case McpMethods.RESOURCES_SUBSCRIBE -> subscribe(call);
      case McpMethods.RESOURCES_UNSUBSCRIBE -> unsubscribe(call);
      case McpMethods.PROMPTS_LIST -> listPrompts(call);
      case McpMethods.PROMPTS_GET -> getPrompt(call, context);
      case McpMethods.COMPLETION_COMPLETE -> complete(call, context);
      default -> throw McpException.methodNotFound(call.method());
    };
  }

  // ---------------------------------------------------------------- resources

  private JsonNode listResources(InboundCall call) {
    requireResources(call);
    List<Resource> visible = resources().stream()
        .filter(r -> server.resourceAccess.test(session, r.uri()))
        .toList();
    Pagination.Page<Resource> page = server.pagination.page(call.method(), visible, cursor(call));
    return McpJson.toTree(ListResourcesResult.of(page.items(), page.nextCursor()));
  }

  private JsonNode listTemplates(InboundCall call) {
    requireResources(call);
    Pagination.Page<ResourceTemplate> page =
        server.pagination.page(call.method(), templates(), cursor(call));
    return McpJson.toTree(ListResourceTemplatesResult.of(page.items(), page.nextCursor()));
  }

  private JsonNode read(InboundCall call, RequestContext context) {
    requireResources(call);
    String uri = McpJson.fromTree(call.params(), ReadResourceParams.class).uri();
    ResourceCatalog.Resolved resolved = resolveReadable(uri);
    ReadResourceResult result = invoke(call, "resource " + uri,
        () -> resolved.handler().read(new ResourceRead(uri, resolved.variables(), context)));
    if (result == null) {
      throw ResourceHandler.notFound(uri);
    }
    return McpJson.toTree(result);
  }

  private JsonNode subscribe(InboundCall call) {
    requireResources(call);
    String uri = McpJson.fromTree(call.params(), SubscribeParams.class).uri();
    resolveReadable(uri);
    server.subscriptions.subscribe(session, uri);
    return McpJson.object();
  }

  private JsonNode unsubscribe(InboundCall call) {
    requireResources(call);
    String uri = McpJson.fromTree(call.params(), UnsubscribeParams.class).uri();
    server.subscriptions.unsubscribe(session, uri);
    return McpJson.object();
  }

  /**
   * The handler for a uri this session may read. A uri the access hook refuses gets the same
   * answer as an unknown one (-32002), so the error does not reveal that the resource exists.
   */
  private ResourceCatalog.Resolved resolveReadable(String uri) {
    ResourceCatalog local = session.localResources();
    ResourceCatalog.Resolved resolved = (local == null ? java.util.Optional.<ResourceCatalog.Resolved>empty() : local.resolve(uri))
        .or(() -> server.resourceCatalog.resolve(uri))
        .orElse(null);
    if (resolved == null || !server.resourceAccess.test(session, uri)) {
      throw ResourceHandler.notFound(uri);
    }
    return resolved;
  }

  /** The server's resources with this session's overlay on top (same uri: the session's wins), in order. */
  private List<Resource> resources() {
    ResourceCatalog local = session.localResources();
    if (local == null || local.isEmpty()) {
      return server.resourceCatalog.list();
    }
    java.util.LinkedHashMap<String, Resource> merged = new java.util.LinkedHashMap<>();
    server.resourceCatalog.list().forEach(r -> merged.put(r.uri(), r));
    local.list().forEach(r -> merged.put(r.uri(), r));
    return List.copyOf(merged.values());
  }

  private List<ResourceTemplate> templates() {
    ResourceCatalog local = session.localResources();
    if (local == null || local.templates().isEmpty()) {
      return server.resourceCatalog.templates();
    }
    java.util.LinkedHashMap<String, ResourceTemplate> merged = new java.util.LinkedHashMap<>();
    server.resourceCatalog.templates().forEach(t -> merged.put(t.uriTemplate(), t));
    local.templates().forEach(t -> merged.put(t.uriTemplate(), t));
    return List.copyOf(merged.values());
  }

  private java.util.Optional<UriTemplate> template(String uriTemplate) {
    ResourceCatalog local = session.localResources();
    return (local == null ? java.util.Optional.<UriTemplate>empty() : local.template(uriTemplate))
        .or(() -> server.resourceCatalog.template(uriTemplate));
  }

  /** The server's prompts with this session's overlay on top (same name: the session's wins), by name. */
  private List<Prompt> prompts() {
    PromptCatalog local = session.localPrompts();
    if (local == null || local.isEmpty()) {
      return server.promptCatalog.list();
    }
    java.util.TreeMap<String, Prompt> merged = new java.util.TreeMap<>();
    server.promptCatalog.list().forEach(p -> merged.put(p.name(), p));
    local.list().forEach(p -> merged.put(p.name(), p));
    return List.copyOf(merged.values());
  }

  private java.util.Optional<PromptCatalog.Entry> prompt(String name) {
    PromptCatalog local = session.localPrompts();
    return (local == null ? java.util.Optional.<PromptCatalog.Entry>empty() : local.get(name))
        .or(() -> server.promptCatalog.get(name));
  }

  private void requireResources(InboundCall call) {
    if (session.serverCapabilities().resources() == null) {
      throw McpException.methodNotFound(call.method());
    }
  }

  // ---------------------------------------------------------------- prompts

  private JsonNode listPrompts(InboundCall call) {
    requirePrompts(call);
    Pagination.Page<Prompt> page = server.pagination.page(call.method(), prompts(), cursor(call));
    return McpJson.toTree(ListPromptsResult.of(page.items(), page.nextCursor()));
  }

  private JsonNode getPrompt(InboundCall call, RequestContext context) {
    requirePrompts(call);
    GetPromptParams p = McpJson.fromTree(call.params(), GetPromptParams.class);
    PromptCatalog.Entry entry = prompt(p.name())
        .orElseThrow(() -> McpException.invalidParams("Invalid params: unknown prompt: " + p.name()));
    Map<String, String> args = p.argumentsOrEmpty();
    List<PromptArgument> declared = entry.prompt().arguments() == null ? List.of() : entry.prompt().arguments();
    for (PromptArgument a : declared) {
      if (a.requiredOrFalse() && !args.containsKey(a.name())) {
        throw McpException.invalidParams(
            "Invalid params: prompt " + p.name() + " needs the argument '" + a.name() + "'");
      }
    }
    GetPromptResult result = invoke(call, "prompt " + p.name(),
        () -> entry.handler().get(new PromptGet(p.name(), args, context)));
    if (result == null) {
      result = GetPromptResult.of(null, List.of());
    }
    return McpJson.toTree(result);
  }

  private void requirePrompts(InboundCall call) {
    if (session.serverCapabilities().prompts() == null) {
      throw McpException.methodNotFound(call.method());
    }
  }

  // ---------------------------------------------------------------- completions

  private JsonNode complete(InboundCall call, RequestContext context) {
    if (session.serverCapabilities().completions() == null) {
      throw McpException.methodNotFound(call.method());
    }
    CompleteParams p = McpJson.fromTree(call.params(), CompleteParams.class);
    String argument = p.argument().name();
    switch (p.ref()) {
      case PromptReference ref -> {
        PromptCatalog.Entry entry = prompt(ref.name())
            .orElseThrow(() -> McpException.invalidParams("Invalid params: unknown prompt: " + ref.name()));
        List<PromptArgument> args = entry.prompt().arguments() == null ? List.of() : entry.prompt().arguments();
        if (args.stream().noneMatch(a -> a.name().equals(argument))) {
          throw McpException.invalidParams("Invalid params: prompt " + ref.name() + " has no argument '" + argument + "'");
        }
      }
      case ResourceTemplateReference ref -> {
        UriTemplate template = template(ref.uri())
            .orElseThrow(() -> McpException.invalidParams("Invalid params: unknown resource template: " + ref.uri()));
        if (!template.variables().contains(argument)) {
          throw McpException.invalidParams(
              "Invalid params: resource template " + ref.uri() + " has no variable '" + argument + "'");
        }
      }
    }
    CompletionHandler handler = server.completions.get(p.ref());
    if (handler == null) {
      return McpJson.toTree(CompleteResult.empty());
    }
    CompletionRequest request = new CompletionRequest(p.ref(), argument, p.argument().value(), p.contextArguments(), context);
    List<String> matches = invoke(call, "completion for " + argument, () -> handler.complete(request));
    return McpJson.toTree(CompleteResult.of(matches == null ? List.of() : matches));
  }

  // ---------------------------------------------------------------- shared

  private static @org.jspecify.annotations.Nullable String cursor(InboundCall call) {
    return McpJson.fromTree(call.params(), PaginatedParams.class).cursor();
  }

  /**
   * Runs user code: protocol errors and cancellation pass through; anything else is logged here and
   * answered with a bare -32603, so no internals reach the client.
   */
  static <T> T invoke(InboundCall call, String what, Callable<T> body) {
    try {
      return body.call();
    } catch (McpException | CancelledException e) {
      throw e;
    } catch (Exception e) {
      if (call.cancellation().isCancelled()) {
        throw new CancelledException(String.valueOf(call.cancellation().reason()));
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.log(Level.WARNING, "handler for " + what + " failed", e);
      throw McpException.internal("Internal error");
    }
  }
}
