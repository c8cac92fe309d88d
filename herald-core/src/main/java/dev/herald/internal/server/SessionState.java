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
 * {@code notifications/initialized} arrived, the session's id as the owner of its session-bound tasks,
 * and, on a protected server, the party that created the session (MCP 2025-11-25
 * basic/authorization, "Token Handling": a session is bound to it, and any node refuses it to
 * another party).
 *
 * @param protocolVersion the negotiated version's wire name
 * @param clientInfo the client's {@code clientInfo}
 * @param clientCapabilities what the client declared at the initialize request
 * @param serverCapabilities what the server declared to this session at the initialize request
 * @param logLevel the session's log level
 * @param subscriptions the resource uris the session is subscribed to
 * @param initialized whether the session is operating ({@code notifications/initialized} arrived)
 * @param taskOwner the session's id as a task owner (never shown to the client)
 * @param owner the party whose principal created the session, or {@code null} on an open endpoint
 */
public record SessionState(
    String protocolVersion,
    @Nullable Implementation clientInfo,
    ClientCapabilities clientCapabilities,
    ServerCapabilities serverCapabilities,
    LoggingLevel logLevel,
    Set<String> subscriptions,
    boolean initialized,
    String taskOwner,
    @Nullable Owner owner) {
  public SessionState {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    Objects.requireNonNull(serverCapabilities, "serverCapabilities");
    Objects.requireNonNull(logLevel, "logLevel");
    subscriptions = Set.copyOf(subscriptions);
    Objects.requireNonNull(taskOwner, "taskOwner");
  }

  /** This state with {@code owner} as the session's owner. */
  public SessionState withOwner(@Nullable Owner owner) {
    return new SessionState(
        protocolVersion,
        clientInfo,
        clientCapabilities,
        serverCapabilities,
        logLevel,
        subscriptions,
        initialized,
        taskOwner,
        owner);
  }

  /**
   * The party a session belongs to: the issuer and subject of the principal that created it
   * ({@link dev.herald.auth.Principal#sameParty}); never its token, scopes or claims.
   *
   * @param issuer the token's issuer, or {@code null} when its verifier did not know it
   * @param subject the token's subject
   */
  public record Owner(@Nullable String issuer, String subject) {
    public Owner {
      Objects.requireNonNull(subject, "subject");
    }

    /** The party of {@code p}, or {@code null} for no principal. */
    public static @Nullable Owner of(dev.herald.auth.@Nullable Principal p) {
      return p == null ? null : new Owner(p.issuer(), p.subject());
    }

    /** A principal standing for this party: only its issuer and subject are known. */
    public dev.herald.auth.Principal principal() {
      return new dev.herald.auth.Principal(
          issuer, subject, null, java.util.Set.of(), null, java.util.Map.of());
    }
  }
}
