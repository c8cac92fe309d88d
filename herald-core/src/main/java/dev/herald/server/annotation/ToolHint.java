package dev.herald.server.annotation;

/**
 * The value of one of a tool's behaviour hints (MCP 2025-11-25 server/tools, "ToolAnnotations"):
 * {@link #UNSET} leaves the hint out of the tool's {@code annotations}, so the client applies the
 * specification's default (for example {@code destructiveHint} and {@code openWorldHint} default to
 * true).
 */
public enum ToolHint {
  /** The hint is not sent. */
  UNSET,
  /** The hint is sent as {@code true}. */
  TRUE,
  /** The hint is sent as {@code false}. */
  FALSE
}
