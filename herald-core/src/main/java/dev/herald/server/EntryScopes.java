package dev.herald.server;

import dev.herald.auth.Principal;
import dev.herald.wire.McpMethods;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth scopes each tool, resource, resource template and prompt requires (MCP 2025-11-25
 * basic/authorization, "Scope Challenge Handling"), as {@link McpServer.Builder#toolScopes},
 * {@link McpServer.Builder#resourceScopes} and {@link McpServer.Builder#promptScopes} declared
 * them.
 *
 * <p>Design note. Keyed by the entry's name (a tool's or prompt's name, a resource's uri, a
 * template's {@code uriTemplate}), so the same declaration guards the entry whichever layer
 * registered it (the server's builder, {@link McpServer#addTool} later, or a session's overlay).
 * One question, {@link #required}, serves both places that ask it: the method table's
 * authorization step (before the handler) and the HTTP endpoint, which answers {@code 403
 * insufficient_scope} before it hands the request to a session. Only a request that carries a
 * principal is checked: without authorization nothing changes.
 *
 * <p>Immutable; thread-safe.
 */
final class EntryScopes {
  static final EntryScopes NONE = new EntryScopes(Map.of(), Map.of(), Map.of());

  private final Map<String, Set<String>> tools;
  private final Map<String, Set<String>> resources; // uri or uriTemplate
  private final Map<String, Set<String>> prompts;

  EntryScopes(
      Map<String, Set<String>> tools,
      Map<String, Set<String>> resources,
      Map<String, Set<String>> prompts) {
    this.tools = Map.copyOf(tools);
    this.resources = Map.copyOf(resources);
    this.prompts = Map.copyOf(prompts);
  }

  /** A mutable table for the builder. */
  static final class Builder {
    private final Map<String, Set<String>> tools = new LinkedHashMap<>();
    private final Map<String, Set<String>> resources = new LinkedHashMap<>();
    private final Map<String, Set<String>> prompts = new LinkedHashMap<>();

    void tool(String name, String... scopes) {
      put(tools, "tool", name, scopes);
    }

    void resource(String uriOrTemplate, String... scopes) {
      put(resources, "resource", uriOrTemplate, scopes);
    }

    void prompt(String name, String... scopes) {
      put(prompts, "prompt", name, scopes);
    }

    private static void put(
        Map<String, Set<String>> into, String what, String key, String... scopes) {
      java.util.Objects.requireNonNull(key, what);
      Set<String> set = new java.util.LinkedHashSet<>();
      for (String s : scopes) {
        if (s == null || s.isEmpty() || !validScope(s)) {
          throw new IllegalArgumentException(
              "scope of " + what + " " + key + " must be a non-empty scope token, was " + s);
        }
        set.add(s);
      }
      if (set.isEmpty()) {
        throw new IllegalArgumentException("name at least one scope for " + what + " " + key);
      }
      if (into.putIfAbsent(key, Set.copyOf(set)) != null) {
        throw new IllegalArgumentException(
            "scopes of " + what + " " + key + " were already set to " + into.get(key));
      }
    }

    EntryScopes build() {
      return tools.isEmpty() && resources.isEmpty() && prompts.isEmpty()
          ? NONE
          : new EntryScopes(tools, resources, prompts);
    }
  }

  /** RFC 6749 section 3.3: {@code scope-token = 1*( %x21 / %x23-5B / %x5D-7E )}. */
  static boolean validScope(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  boolean isEmpty() {
    return this == NONE;
  }

  Set<String> tool(String name) {
    return tools.getOrDefault(name, Set.of());
  }

  Set<String> prompt(String name) {
    return prompts.getOrDefault(name, Set.of());
  }

  /** The scopes of the resource or template entry keyed {@code uriOrTemplate}. */
  Set<String> resource(String uriOrTemplate) {
    return resources.getOrDefault(uriOrTemplate, Set.of());
  }

  /** Whether {@code principal} may use an entry that needs {@code scopes}; null passes. */
  static boolean allows(@Nullable Principal principal, Set<String> scopes) {
    return principal == null || scopes.isEmpty() || principal.hasScopes(scopes);
  }

  /** Whether the results of {@code area} vary per principal (some entry there needs a scope). */
  boolean varies(CacheArea area) {
    return switch (area) {
      case DISCOVER -> false;
      case TOOLS -> !tools.isEmpty();
      case PROMPTS -> !prompts.isEmpty();
      case RESOURCES, RESOURCE_TEMPLATES, RESOURCE_READ -> !resources.isEmpty();
    };
  }

  /** Whether some entry of {@code area} needs a scope (its lists then vary per principal). */
  boolean varies(CatalogArea area) {
    return switch (area) {
      case TOOLS -> !tools.isEmpty();
      case PROMPTS -> !prompts.isEmpty();
      case RESOURCES -> !resources.isEmpty();
    };
  }

  /**
   * The scopes a request for {@code method} with {@code params} needs: those of the tool ({@code
   * tools/call}), the prompt ({@code prompts/get}) or the resource or template a uri resolves to
   * ({@code resources/read}, {@code resources/subscribe}, through {@code resolve}); empty for
   * every other request, and for a name that no declaration covers.
   */
  Set<String> required(
      String method,
      @Nullable JsonNode params,
      Function<String, Optional<ResourceCatalog.Resolved>> resolve) {
    if (isEmpty() || params == null) {
      return Set.of();
    }
    return switch (method) {
      case McpMethods.TOOLS_CALL -> text(params, "name").map(this::tool).orElse(Set.of());
      case McpMethods.PROMPTS_GET -> text(params, "name").map(this::prompt).orElse(Set.of());
      case McpMethods.RESOURCES_READ, McpMethods.RESOURCES_SUBSCRIBE ->
          resources.isEmpty()
              ? Set.of()
              : text(params, "uri").flatMap(resolve).map(r -> resource(r.key())).orElse(Set.of());
      default -> Set.of();
    };
  }

  private static Optional<String> text(JsonNode params, String field) {
    JsonNode v = params.get(field);
    return v != null && v.isString() ? Optional.of(v.stringValue()) : Optional.empty();
  }
}
