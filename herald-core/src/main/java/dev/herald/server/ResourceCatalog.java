package dev.herald.server;

import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The server's resources and resource templates, changeable at run time. Lists keep registration
 * order (a replaced entry keeps its place), so pagination cursors stay stable while nothing
 * changes. A read resolves an exact resource first, then the templates in order; the first match
 * wins.
 *
 * <p>Every change tells each live session whose gate is open that the resource list changed
 * ({@code notifications/resources/list_changed}); the notification is sent after the catalog's
 * lock is released.
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
  record StaticEntry(Resource resource, ResourceHandler handler) {}

  record TemplateEntry(ResourceTemplate template, UriTemplate parsed, ResourceHandler handler) {}

  /** What a uri resolved to: its handler and the template variables it matched. */
  record Resolved(ResourceHandler handler, Map<String, String> variables) {}

  private final Runnable onChange;
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock; published as the snapshots below
  private final LinkedHashMap<String, StaticEntry> resources = new LinkedHashMap<>();
  private final LinkedHashMap<String, TemplateEntry> templates = new LinkedHashMap<>();
  private volatile List<StaticEntry> resourceSnapshot = List.of();
  private volatile List<TemplateEntry> templateSnapshot = List.of();

  ResourceCatalog(Runnable onChange) {
    this.onChange = onChange;
  }

  /** Adds or replaces a resource (by uri). */
  public void add(Resource resource, ResourceHandler handler) {
    put(resource, handler, true);
    onChange.run();
  }

  /** Removes a resource; returns false if there was none with that uri. */
  public boolean remove(String uri) {
    boolean removed;
    lock.lock();
    try {
      removed = resources.remove(uri) != null;
      publish();
    } finally {
      lock.unlock();
    }
    if (removed) {
      onChange.run();
    }
    return removed;
  }

  /**
   * Adds or replaces a resource template (by its {@code uriTemplate}).
   *
   * @throws IllegalArgumentException if the template is not RFC 6570 level 1 ({@code {name}} only)
   */
  public void addTemplate(ResourceTemplate template, ResourceHandler handler) {
    putTemplate(template, handler, true);
    onChange.run();
  }

  /** Removes a resource template; returns false if there was none with that uri template. */
  public boolean removeTemplate(String uriTemplate) {
    boolean removed;
    lock.lock();
    try {
      removed = templates.remove(uriTemplate) != null;
      publish();
    } finally {
      lock.unlock();
    }
    if (removed) {
      onChange.run();
    }
    return removed;
  }

  /** The resources, in registration order. */
  public List<Resource> list() {
    return resourceSnapshot.stream().map(StaticEntry::resource).toList();
  }

  /** The resource templates, in registration order. */
  public List<ResourceTemplate> templates() {
    return templateSnapshot.stream().map(TemplateEntry::template).toList();
  }

  /** Whether there is neither a resource nor a template. */
  public boolean isEmpty() {
    return resourceSnapshot.isEmpty() && templateSnapshot.isEmpty();
  }

  // ---------------------------------------------------------------- package-private

  void put(Resource resource, ResourceHandler handler, boolean replace) {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(handler, "handler");
    lock.lock();
    try {
      if (!replace && resources.containsKey(resource.uri())) {
        throw new IllegalArgumentException("resource " + resource.uri() + " was already registered");
      }
      resources.put(resource.uri(), new StaticEntry(resource, handler));
      publish();
    } finally {
      lock.unlock();
    }
  }

  void putTemplate(ResourceTemplate template, ResourceHandler handler, boolean replace) {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(handler, "handler");
    UriTemplate parsed = UriTemplate.parse(template.uriTemplate());
    lock.lock();
    try {
      if (!replace && templates.containsKey(template.uriTemplate())) {
        throw new IllegalArgumentException("resource template " + template.uriTemplate() + " was already registered");
      }
      templates.put(template.uriTemplate(), new TemplateEntry(template, parsed, handler));
      publish();
    } finally {
      lock.unlock();
    }
  }

  /** The handler for {@code uri}: an exact resource, else the first template that matches. */
  Optional<Resolved> resolve(String uri) {
    for (StaticEntry e : resourceSnapshot) {
      if (e.resource().uri().equals(uri)) {
        return Optional.of(new Resolved(e.handler(), Map.of()));
      }
    }
    for (TemplateEntry t : templateSnapshot) {
      Optional<Map<String, String>> vars = t.parsed().match(uri);
      if (vars.isPresent()) {
        return Optional.of(new Resolved(t.handler(), vars.get()));
      }
    }
    return Optional.empty();
  }

  /** The parsed template registered under {@code uriTemplate}. */
  Optional<UriTemplate> template(String uriTemplate) {
    for (TemplateEntry t : templateSnapshot) {
      if (t.template().uriTemplate().equals(uriTemplate)) {
        return Optional.of(t.parsed());
      }
    }
    return Optional.empty();
  }

  private void publish() {
    resourceSnapshot = List.copyOf(resources.values());
    templateSnapshot = List.copyOf(templates.values());
  }
}
