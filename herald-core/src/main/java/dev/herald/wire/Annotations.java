package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Hints for clients about a piece of content: audience ("user", "assistant"), priority 0..1, lastModified. */
public record Annotations(
    @Nullable List<String> audience, @Nullable Double priority, @Nullable String lastModified) {}
