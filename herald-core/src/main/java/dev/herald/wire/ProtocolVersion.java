package dev.herald.wire;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The single source of truth for what each MCP protocol version allows. Code asks this table
 * ({@code version.batching()}, {@code version.era()}) instead of comparing version strings.
 */
public enum ProtocolVersion {
  V2024_11_05("2024-11-05", Era.LEGACY, false, false, false, false, false, false),
  V2025_03_26("2025-03-26", Era.LEGACY, true, false, false, false, false, false),
  V2025_06_18("2025-06-18", Era.LEGACY, false, true, true, true, false, false),
  V2025_11_25("2025-11-25", Era.LEGACY, false, true, true, true, true, true),
  V2026_07_28("2026-07-28", Era.MODERN, false, true, true, true, false, false);

  /** The two protocol eras. */
  public enum Era {
    /** {@code initialize} handshake, sessions, server-to-client requests. */
    LEGACY,
    /** Stateless: per-request {@code _meta}, {@code server/discover}, no server requests. */
    MODERN
  }

  private final String wire;
  private final Era era;
  private final boolean batching;
  private final boolean protocolVersionHeader;
  private final boolean elicitation;
  private final boolean structuredToolOutput;
  private final boolean tasks;
  private final boolean ssePolling;

  ProtocolVersion(
      String wire,
      Era era,
      boolean batching,
      boolean protocolVersionHeader,
      boolean elicitation,
      boolean structuredToolOutput,
      boolean tasks,
      boolean ssePolling) {
    this.wire = wire;
    this.era = era;
    this.batching = batching;
    this.protocolVersionHeader = protocolVersionHeader;
    this.elicitation = elicitation;
    this.structuredToolOutput = structuredToolOutput;
    this.tasks = tasks;
    this.ssePolling = ssePolling;
  }

  /** The newest handshake-era version: what Herald offers in {@code initialize}. */
  public static final ProtocolVersion LATEST_LEGACY = V2025_11_25;

  /** The newest version of all. */
  public static final ProtocolVersion LATEST = V2026_07_28;

  /** Assumed on HTTP when a request carries no {@code MCP-Protocol-Version} header. */
  public static final ProtocolVersion HTTP_DEFAULT = V2025_03_26;

  /** The version string on the wire, e.g. {@code "2025-11-25"}. */
  public String wire() {
    return wire;
  }

  public Era era() {
    return era;
  }

  /** Whether the {@code initialize} handshake and sessions exist in this version. */
  public boolean handshake() {
    return era == Era.LEGACY;
  }

  /** Whether JSON-RPC batches may be received (2025-03-26 only). */
  public boolean batching() {
    return batching;
  }

  /** Whether HTTP clients send {@code MCP-Protocol-Version}. */
  public boolean protocolVersionHeader() {
    return protocolVersionHeader;
  }

  /** Whether {@code elicitation/create} exists. */
  public boolean elicitation() {
    return elicitation;
  }

  /** Whether tools may declare {@code outputSchema} and return {@code structuredContent}. */
  public boolean structuredToolOutput() {
    return structuredToolOutput;
  }

  /** Whether the experimental core tasks of 2025-11-25 apply. */
  public boolean coreTasks() {
    return tasks;
  }

  /** Whether servers may close SSE streams with a {@code retry:} hint and clients poll (SEP-1699). */
  public boolean ssePolling() {
    return ssePolling;
  }

  /** Whether servers may send requests (sampling, elicitation, roots, ping) to clients. */
  public boolean serverRequests() {
    return era == Era.LEGACY;
  }

  /** Whether {@code resources/subscribe} and the standing GET stream exist. */
  public boolean legacySubscriptions() {
    return era == Era.LEGACY;
  }

  /** Whether {@code logging/setLevel} exists. */
  public boolean setLevel() {
    return era == Era.LEGACY;
  }

  /** Whether {@code ping} exists (removed in 2026-07-28 with the sessions it kept alive). */
  public boolean ping() {
    return era == Era.LEGACY;
  }

  /** Whether {@code server/discover} exists (2026-07-28: every server must answer it). */
  public boolean discovery() {
    return era == Era.MODERN;
  }

  /**
   * Whether {@code subscriptions/listen} exists (2026-07-28: it replaces the standing GET stream
   * and {@code resources/subscribe}).
   */
  public boolean subscriptionsListen() {
    return era == Era.MODERN;
  }

  /** Looks up a wire string; empty when the version is unknown. */
  public static Optional<ProtocolVersion> parse(String wire) {
    for (ProtocolVersion v : values()) {
      if (v.wire.equals(wire)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  /** Every version that uses the {@code initialize} handshake, oldest first. */
  public static List<ProtocolVersion> legacyVersions() {
    return Arrays.stream(values()).filter(ProtocolVersion::handshake).toList();
  }

  /** The wire strings of every supported version, oldest first. */
  public static List<String> supportedWire() {
    return Arrays.stream(values()).map(ProtocolVersion::wire).toList();
  }

  public boolean isAtLeast(ProtocolVersion other) {
    return compareTo(other) >= 0;
  }
}
