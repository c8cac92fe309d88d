package dev.herald.server;

import dev.herald.wire.Prompt;
import java.util.List;
import java.util.Objects;

/**
 * Prompts, changeable at run time: the server's ({@link McpServer#prompts()}) or one session's
 * own, on top of the server's ({@link ServerSession#prompts()}). Listed sorted by name, so
 * pagination cursors stay stable while nothing changes.
 *
 * <p>Every change is announced with {@code notifications/prompts/list_changed}, coalesced: a
 * change to the server's catalog to each live session whose gate is open, a change to a session's
 * catalog to that session only.
 *
 * {@snippet :
 * server.prompts().add(Prompt.of("hello", "Says hello", List.of()),
 *     get -> GetPromptResult.of(null, List.of(PromptMessage.user("hello"))));
 * }
 *
 * <p>Thread-safe.
 */
public final class PromptCatalog {
  record Entry(Prompt prompt, PromptHandler handler) {
    Entry {
      Objects.requireNonNull(prompt, "prompt");
      Objects.requireNonNull(handler, "handler");
    }

    String name() {
      return prompt.name();
    }
  }

  static final Catalog.Kind<Entry> PROMPTS =
      new Catalog.Kind<>(CatalogArea.PROMPTS, Entry::name, Catalog.Order.BY_KEY);

  private final Catalog<Entry> prompts;

  /** A front over one layer of prompts. */
  PromptCatalog(Catalog<Entry> prompts) {
    this.prompts = prompts;
  }

  /** Adds or replaces a prompt (by name). */
  public void add(Prompt prompt, PromptHandler handler) {
    prompts.put(new Entry(prompt, handler));
  }

  /** Removes a prompt; returns false if there was none by that name. */
  public boolean remove(String name) {
    return prompts.remove(name);
  }

  /** The prompts of this catalog, sorted by name. */
  public List<Prompt> list() {
    return prompts.list().stream().map(Entry::prompt).toList();
  }

  /** Whether this catalog has no prompt. */
  public boolean isEmpty() {
    return prompts.isEmpty();
  }
}
