package dev.herald.internal.server;

import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ServerCapabilities;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What any node needs to serve a request of a handshake-era session it did not start (MCP
 * 2025-11-25 basic/lifecycle: what the initialize request fixed for the session; server/utilities/logging;
 * server/resources, "Subscriptions"): the negotiated version, both sides' capabilities as declared
 * at bring-up, the client's info, the log level, the resource subscriptions, whether
 * {@code notifications/initialized} arrived, and the session's id as the owner of its session-bound tasks.
 *
 * @param protocolVersion the negotiated version's wire name
 * @param clientInfo the client's {@code clientInfo}
 * @param clientCapabilities what the client declared at the initialize request
 * @param serverCapabilities what the server declared to this session at the initialize request
 * @param logLevel the session's log level
 * @param subscriptions the resource uris the session is subscribed to
 * @param initialized whether the session is operating ({@code notifications/initialized} arrived)
 * @param taskOwner the session's id as a task owner (never shown to the client)
 */
public record SessionState(
    String protocolVersion,
    @Nullable Implementation clientInfo,
    ClientCapabilities clientCapabilities,
    ServerCapabilities serverCapabilities,
    LoggingLevel logLevel,
    Set<String> subscriptions,
    boolean initialized,
    String taskOwner) {
  public SessionState {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    Objects.requireNonNull(serverCapabilities, "serverCapabilities");
    Objects.requireNonNull(logLevel, "logLevel");
    subscriptions = Set.copyOf(subscriptions);
    Objects.requireNonNull(taskOwner, "taskOwner");
  }
}
