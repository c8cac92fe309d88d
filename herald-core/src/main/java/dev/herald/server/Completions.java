package dev.herald.server;

import dev.herald.wire.CompletionReference;
import dev.herald.wire.PromptReference;
import dev.herald.wire.ResourceTemplateReference;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** Completion handlers by reference: a prompt's name or a resource template's uri template. Thread-safe. */
final class Completions {
  private final ConcurrentHashMap<String, CompletionHandler> handlers = new ConcurrentHashMap<>();

  void put(CompletionReference ref, CompletionHandler handler) {
    handlers.put(key(ref), Objects.requireNonNull(handler, "handler"));
  }

  @Nullable CompletionHandler get(CompletionReference ref) {
    return handlers.get(key(ref));
  }

  boolean isEmpty() {
    return handlers.isEmpty();
  }

  private static String key(CompletionReference ref) {
    // instanceof, not a type switch: a type switch's first run spins a class, and a server that
    // registers a completion does this before its first answer (docs/benchmarks.md, "Cold start")
    if (Objects.requireNonNull(ref, "ref") instanceof PromptReference p) {
      return "prompt\0" + p.name();
    }
    return "resource\0" + ((ResourceTemplateReference) ref).uri();
  }
}
