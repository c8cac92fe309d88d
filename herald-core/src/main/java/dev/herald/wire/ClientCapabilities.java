package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a client supports. Presence of a member means support; object members are kept whole so
 * that sub-capabilities Herald does not model survive. {@code extensions} exists from 2026-07-28.
 */
public record ClientCapabilities(
    @Nullable ObjectNode experimental,
    @Nullable Roots roots,
    @Nullable ObjectNode sampling,
    @Nullable ObjectNode elicitation,
    @Nullable ObjectNode tasks,
    @Nullable ObjectNode extensions) {

  /** {@code roots}: the client answers {@code roots/list}; {@code listChanged} if it notifies changes. */
  public record Roots(@Nullable Boolean listChanged) {}

  public static ClientCapabilities none() {
    return new ClientCapabilities(null, null, null, null, null, null);
  }

  public boolean supportsRoots() {
    return roots != null;
  }

  public boolean supportsRootsListChanged() {
    return roots != null && Boolean.TRUE.equals(roots.listChanged());
  }

  public boolean supportsSampling() {
    return sampling != null;
  }

  public boolean supportsElicitation() {
    return elicitation != null;
  }

  /** Whether the client accepts form-mode elicitation ({@code {}} means form). */
  public boolean supportsFormElicitation() {
    return elicitation != null && (elicitation.isEmpty() || elicitation.has("form"));
  }

  /** Whether the client accepts URL-mode elicitation. */
  public boolean supportsUrlElicitation() {
    return elicitation != null && elicitation.has("url");
  }

  public boolean supportsExtension(String id) {
    return extensions != null && extensions.has(id);
  }

  /**
   * The union of this declaration and another (SEP-2575: a per-request declaration adds to the
   * session's, it never takes anything away).
   */
  public ClientCapabilities union(@Nullable ClientCapabilities other) {
    if (other == null) {
      return this;
    }
    return new ClientCapabilities(
        merge(experimental, other.experimental),
        roots == null
            ? other.roots
            : other.roots == null
                ? roots
                : new Roots(
                    Boolean.TRUE.equals(roots.listChanged())
                        || Boolean.TRUE.equals(other.roots.listChanged())),
        merge(sampling, other.sampling),
        merge(elicitation, other.elicitation),
        merge(tasks, other.tasks),
        merge(extensions, other.extensions));
  }

  private static @Nullable ObjectNode merge(@Nullable ObjectNode a, @Nullable ObjectNode b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    ObjectNode out = a.deepCopy();
    b.properties()
        .forEach(e -> {
          if (!out.has(e.getKey())) {
            out.set(e.getKey(), e.getValue());
          }
        });
    return out;
  }
}
