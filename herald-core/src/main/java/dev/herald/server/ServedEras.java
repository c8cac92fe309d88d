package dev.herald.server;

import dev.herald.wire.ProtocolVersion;
import java.util.Arrays;
import java.util.List;

/**
 * Which protocol eras a server answers (MCP 2026-07-28 basic/versioning, "Backward
 * Compatibility"): a dual-era server picks the era of each exchange from how the client opens it
 * (an {@code initialize} request selects the handshake era for that session; a request carrying
 * {@code _meta["io.modelcontextprotocol/protocolVersion"]} of a stateless version is served on its
 * own), and can serve both at once on one endpoint or one stdio pipe.
 */
public enum ServedEras {
  /** Both eras on one endpoint (the default). */
  DUAL,
  /**
   * 2026-07-28 only: {@code initialize} is refused with an error naming the supported versions,
   * HTTP {@code GET} and {@code DELETE} are 405, and no {@code Mcp-Session-Id} is ever minted or
   * read.
   */
  MODERN_ONLY,
  /** The handshake era only (2024-11-05 to 2025-11-25): a stateless request is refused. */
  HANDSHAKE_ONLY;

  /** Whether a request of {@code version} is served. */
  public boolean serves(ProtocolVersion version) {
    return switch (this) {
      case DUAL -> true;
      case MODERN_ONLY -> !version.handshake();
      case HANDSHAKE_ONLY -> version.handshake();
    };
  }

  /** Whether stateless (2026-07-28) requests are served. */
  public boolean modern() {
    return this != HANDSHAKE_ONLY;
  }

  /** Whether the {@code initialize} handshake is served. */
  public boolean handshake() {
    return this != MODERN_ONLY;
  }

  /**
   * The protocol versions served, oldest first: what {@code server/discover} lists as {@code
   * supportedVersions}.
   */
  public List<ProtocolVersion> versions() {
    return Lists.ALL.get(ordinal());
  }

  /**
   * The stateless (2026-07-28 and later) versions served, oldest first: what a stateless request
   * may name in {@code _meta["io.modelcontextprotocol/protocolVersion"]}. Empty for {@link
   * #HANDSHAKE_ONLY}.
   */
  public List<ProtocolVersion> statelessVersions() {
    return Lists.STATELESS.get(ordinal());
  }

  /** The handshake-era versions served, oldest first. Empty for {@link #MODERN_ONLY}. */
  public List<ProtocolVersion> handshakeVersions() {
    return Lists.HANDSHAKE.get(ordinal());
  }

  /**
   * The lists above, made once per constant (era routing asks for them on every stateless
   * request); each is unmodifiable.
   */
  private static final class Lists {
    static final List<List<ProtocolVersion>> ALL =
        Arrays.stream(values())
            .map(e -> Arrays.stream(ProtocolVersion.values()).filter(e::serves).toList())
            .toList();
    static final List<List<ProtocolVersion>> STATELESS =
        ALL.stream().map(l -> l.stream().filter(v -> !v.handshake()).toList()).toList();
    static final List<List<ProtocolVersion>> HANDSHAKE =
        ALL.stream().map(l -> l.stream().filter(ProtocolVersion::handshake).toList()).toList();
  }
}
