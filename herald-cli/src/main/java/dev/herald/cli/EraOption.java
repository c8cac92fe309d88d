package dev.herald.cli;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.wire.ProtocolVersion;
import picocli.CommandLine.Option;

/**
 * {@code --era latest|modern|handshake}, the client commands' choice of protocol era (MCP
 * 2026-07-28 basic/versioning, "Backward Compatibility"): {@code latest} (the default) probes with
 * {@code server/discover} and falls back to the {@code initialize} handshake with a handshake-era
 * server; {@code modern} speaks only 2026-07-28; {@code handshake} only the handshake era.
 */
final class EraOption {
  /** The values of {@code --era}. */
  enum Era {
    latest(EraPreference.LATEST),
    modern(EraPreference.MODERN_ONLY),
    handshake(EraPreference.HANDSHAKE_ONLY);

    final EraPreference preference;

    Era(EraPreference preference) {
      this.preference = preference;
    }
  }

  @Option(
      names = "--era",
      paramLabel = "ERA",
      defaultValue = "latest",
      description =
          "Protocol era: latest (2026-07-28, else the handshake; the default), modern"
              + " (2026-07-28 only) or handshake (2025-11-25 and before only).")
  Era era = Era.latest;

  /** {@code builder} set to the chosen era. */
  McpClient.Builder apply(McpClient.Builder builder) {
    return builder.eras(era.preference);
  }

  /** How a header names the client's era: {@code modern} or {@code handshake}. */
  static String name(McpClient client) {
    return client.era() == ProtocolVersion.Era.MODERN ? "modern" : "handshake";
  }
}
