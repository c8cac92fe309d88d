package dev.herald.server;

import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Resources and resource templates, changeable at run time: the server's ({@link
 * McpServer#resources()}) or one session's own, on top of the server's ({@link
 * ServerSession#resources()}). Lists keep registration order (a replaced entry keeps its place),
 * so pagination cursors stay stable while nothing changes. A read resolves an exact resource
 * first, then the templates in order; the first match wins.
 *
 * <p>Every change is announced with {@code notifications/resources/list_changed}, coalesced: a
 * change to the server's catalog to each live session whose gate is open, a change to a session's
 * catalog to that session only. The notification is sent after the catalog's lock is released.
 *
 * {@snippet :
 * server.resources().add(Resource.of("demo://note", "note", "text/plain"),
 *     ResourceHandler.text("text/plain", () -> "remember the milk"));
 * server.resources().remove("demo://note");
 * }
 *
 * <p>Thread-safe: writers take a lock; readers see immutable snapshots.
 */
public final class ResourceCatalog {
  record StaticEntry(Resource resource, ResourceHandler handler) {
    StaticEntry {
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(handler, "handler");
    }

    String uri() {
      return resource.uri();
    }
  }

  record TemplateEntry(ResourceTemplate template, UriTemplate parsed, ResourceHandler handler) {
    /**
     * @throws IllegalArgumentException if the template is not RFC 6570 level 1
     */
    static TemplateEntry of(ResourceTemplate template, ResourceHandler handler) {
      Objects.requireNonNull(template, "template");
      Objects.requireNonNull(handler, "handler");
      return new TemplateEntry(template, UriTemplate.parse(template.uriTemplate()), handler);
    }

    String uriTemplate() {
      return template.uriTemplate();
    }
  }

  /**
   * What a uri resolved to: its handler, the template variables it matched, and the key of the
   * entry (the resource's uri, or the template's {@code uriTemplate}) whose scopes guard it.
   */
  record Resolved(ResourceHandler handler, Map<String, String> variables, String key) {}

  static final Catalog.Kind<StaticEntry> RESOURCES =
      new Catalog.Kind<>(CatalogArea.RESOURCES, StaticEntry::uri, Catalog.Order.BY_REGISTRATION);
  static final Catalog.Kind<TemplateEntry> TEMPLATES =
      new Catalog.Kind<>(
          CatalogArea.RESOURCES, TemplateEntry::uriTemplate, Catalog.Order.BY_REGISTRATION);

  private final Catalog<StaticEntry> resources;
  private final Catalog<TemplateEntry> templates;

  /** A front over one layer of resources and one of templates. */
  ResourceCatalog(Catalog<StaticEntry> resources, Catalog<TemplateEntry> templates) {
    this.resources = resources;
    this.templates = templates;
  }

  /** Adds or replaces a resource (by uri). */
  public void add(Resource resource, ResourceHandler handler) {
    resources.put(new StaticEntry(resource, handler));
  }

  /** Removes a resource; returns false if there was none with that uri. */
  public boolean remove(String uri) {
    return resources.remove(uri);
  }

  /**
   * Adds or replaces a resource template (by its {@code uriTemplate}).
   *
   * @throws IllegalArgumentException if the template is not RFC 6570 level 1 ({@code {name}} only)
   */
  public void addTemplate(ResourceTemplate template, ResourceHandler handler) {
    templates.put(TemplateEntry.of(template, handler));
  }

  /** Removes a resource template; returns false if there was none with that uri template. */
  public boolean removeTemplate(String uriTemplate) {
    return templates.remove(uriTemplate);
  }

  /** The resources of this catalog, in registration order. */
  public List<Resource> list() {
    return resources.list().stream().map(StaticEntry::resource).toList();
  }

  /** The resource templates of this catalog, in registration order. */
  public List<ResourceTemplate> templates() {
    return templates.list().stream().map(TemplateEntry::template).toList();
  }

  /** Whether there is neither a resource nor a template. */
  public boolean isEmpty() {
    return resources.isEmpty() && templates.isEmpty();
  }

  // ---------------------------------------------------------------- package-private

  /**
   * The handler for {@code uri} in this catalog: an exact resource, else the first template that
   * matches. A session resolves in its own catalog first, then in the server's ({@link
   * ServerSession#resolveResource}).
   */
  Optional<Resolved> resolve(String uri) {
    StaticEntry exact = resources.get(uri);
    if (exact != null) {
      return Optional.of(new Resolved(exact.handler(), Map.of(), uri));
    }
    for (TemplateEntry t : templates.list()) {
      Optional<Map<String, String>> vars = t.parsed().match(uri);
      if (vars.isPresent()) {
        return Optional.of(new Resolved(t.handler(), vars.get(), t.uriTemplate()));
      }
    }
    return Optional.empty();
  }
}
