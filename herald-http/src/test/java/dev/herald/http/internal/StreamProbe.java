package dev.herald.http.internal;

/** Test-only counts of what an endpoint holds open, for the resource-release tests. */
public final class StreamProbe {
  private StreamProbe() {}

  /** POST streams (held exchanges or SSE streams) waiting for their request's response, over every session. */
  public static int openRequestStreams(Endpoint endpoint) {
    int n = 0;
    for (HttpSession s : endpoint.sessions.values()) {
      n += s.openRequests();
    }
    return n;
  }

  /** Open sessions of the 2024-11-05 HTTP+SSE transport. */
  public static int legacySessions(Endpoint endpoint) {
    return endpoint.legacySessions.size();
  }
}
