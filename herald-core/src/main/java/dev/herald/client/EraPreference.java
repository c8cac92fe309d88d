package dev.herald.client;

/**
 * Which protocol era a client tries, and whether it may change era when the server answers as a
 * server of the other one (MCP 2026-07-28 basic/versioning, "Backward Compatibility": a dual-era
 * client probes with {@code server/discover}; a recognised modern answer keeps it modern, any other
 * answer or a timeout sends it to the {@code initialize} handshake, never keyed on one error code).
 *
 * <p>The negotiated version is {@link McpClient#protocolVersion()}, its era {@link McpClient#era()}.
 */
public enum EraPreference {
  /**
   * The default: 2026-07-28 first ({@code server/discover} with the full request {@code _meta});
   * the handshake when the server answers as a handshake-era server, whatever form that answer
   * takes (an error other than a recognised modern one, an HTTP 400/404/405 without a modern
   * error, a non-discover result, a timeout). {@code -32022} naming a mutual version retries with
   * it.
   */
  LATEST,

  /**
   * The handshake first; when {@code initialize} is refused with an error naming the versions the
   * server supports ({@code data.supported}) and one of them is modern, the client goes modern.
   */
  HANDSHAKE_FIRST,

  /** 2026-07-28 only: a server that does not speak it fails {@code connect}. */
  MODERN_ONLY,

  /** The handshake only (what Herald's client did before 2026-07-28). */
  HANDSHAKE_ONLY;

  boolean triesModernFirst() {
    return this == LATEST || this == MODERN_ONLY;
  }

  boolean mayFallBack() {
    return this == LATEST || this == HANDSHAKE_FIRST;
  }
}
