package dev.herald.server;

import dev.herald.wire.Prompt;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The server's prompts, changeable at run time, listed sorted by name (so pagination cursors stay
 * stable while nothing changes). Every change tells each live session whose gate is open that the
 * prompt list changed ({@code notifications/prompts/list_changed}).
 *
 * {@snippet :
 * server.prompts().add(Prompt.of("hello", "Says hello", List.of()),
 *     get -> GetPromptResult.of(null, List.of(PromptMessage.user("hello"))));
 * }
 *
 * <p>Thread-safe.
 */
public final class PromptCatalog {
  record Entry(Prompt prompt, PromptHandler handler) {}

  private final Runnable onChange;
  private final ConcurrentSkipListMap<String, Entry> prompts = new ConcurrentSkipListMap<>();

  PromptCatalog(Runnable onChange) {
    this.onChange = onChange;
  }

  /** Adds or replaces a prompt (by name). */
  public void add(Prompt prompt, PromptHandler handler) {
    put(prompt, handler, true);
    onChange.run();
  }

  /** Removes a prompt; returns false if there was none by that name. */
  public boolean remove(String name) {
    boolean removed = prompts.remove(name) != null;
    if (removed) {
      onChange.run();
    }
    return removed;
  }

  /** The prompts, sorted by name. */
  public List<Prompt> list() {
    return prompts.values().stream().map(Entry::prompt).toList();
  }

  public boolean isEmpty() {
    return prompts.isEmpty();
  }

  void put(Prompt prompt, PromptHandler handler, boolean replace) {
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(handler, "handler");
    Entry e = new Entry(prompt, handler);
    if (replace) {
      prompts.put(prompt.name(), e);
    } else if (prompts.putIfAbsent(prompt.name(), e) != null) {
      throw new IllegalArgumentException("prompt " + prompt.name() + " was already registered");
    }
  }

  Optional<Entry> get(String name) {
    return Optional.ofNullable(prompts.get(name));
  }
}
