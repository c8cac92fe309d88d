package dev.herald.http.internal;

import dev.herald.server.ServerSession;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Test-only access to an endpoint's package-private state, for the tests of {@code dev.herald.http}. */
public final class EndpointProbe {
  private EndpointProbe() {}

  /** The open Streamable HTTP session with this id. */
  public static HttpSession session(Endpoint endpoint, String id) {
    return Objects.requireNonNull(endpoint.sessions.get(id), () -> "no open session " + id);
  }

  /** The MCP session behind an HTTP session that initialized. */
  public static ServerSession serverSession(HttpSession session) {
    return Objects.requireNonNull(session.serverSession(), "the session did not initialize");
  }

  /** The connection attached to the session's standing stream, if any. */
  public static @Nullable SseSink standingSink(HttpSession session) {
    return session.standing().sink();
  }

  /** The id of the session's standing stream, as events in the event store name it. */
  public static String standingStreamId(HttpSession session) {
    return session.standing().id;
  }
}
