package dev.herald.http;

import dev.herald.http.internal.EndpointBuilderAccess;
import dev.herald.http.internal.EndpointConfig;
import dev.herald.server.McpServer;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.time.Duration;

/**
 * The settings every Streamable HTTP endpoint shares, whoever hosts it: Herald's own Jetty server
 * ({@link McpHttpServer.Builder}) or a servlet container ({@code McpServlet.Builder}). Setters
 * validate at once and name the problem. Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class EndpointBuilder<B extends EndpointBuilder<B>> {
  static {
    EndpointBuilderAccess.register(b -> ((EndpointBuilder<?>) b).config);
  }

  /**
   * The validated settings being built; hosts add their own (address, port, path). Internal:
   * {@link McpHttpServer.Builder} reads it here, hosts in other modules through {@link
   * EndpointBuilderAccess}.
   */
  final EndpointConfig.Builder config = EndpointConfig.builder();

  protected EndpointBuilder() {}

  /** This builder, typed as the concrete one. */
  protected abstract B self();

  /**
   * The MCP server whose tools, resources and prompts this endpoint serves (required; no
   * default). Every HTTP session gets its own {@code ServerSession} of this server.
   *
   * @throws NullPointerException if {@code server} is null
   */
  public final B server(McpServer server) {
    config.server(server);
    return self();
  }

  /**
   * Whether to serve the 2024-11-05 HTTP+SSE transport beside Streamable HTTP (default true),
   * and where: {@code ssePath} for its GET stream (default {@code /sse}) and {@code postPath} for
   * the messages a client POSTs (default {@code /messages}). On {@code McpHttpServer} these are
   * paths on the server; on {@code McpServlet} they are beneath the servlet's mapping. The paths
   * must differ from each other and from the Streamable HTTP path, which {@code build()} checks.
   *
   * @throws NullPointerException if a path is null
   * @throws IllegalArgumentException if a path does not start with {@code /}
   */
  public final B legacySse(boolean enabled, String ssePath, String postPath) {
    config.legacySse(enabled, ssePath, postPath);
    return self();
  }

  /**
   * Whether to serve the 2024-11-05 HTTP+SSE transport beside Streamable HTTP (default true), at
   * the paths already set (default {@code /sse} and {@code /messages}). {@code false} serves
   * Streamable HTTP only.
   */
  public final B legacySse(boolean enabled) {
    config.legacySse(enabled);
    return self();
  }

  /**
   * More {@code Origin} values to accept, exactly as browsers send them (e.g. {@code
   * https://app.example.com}; compared ignoring case), or {@code "*"} for any. Adds to the ones
   * given before. Default: none beyond the server's own loopback origins ({@code
   * http://127.0.0.1:<port>}, {@code http://localhost:<port>}, {@code http://[::1]:<port>} and
   * the bound address), which are always accepted. A request without {@code Origin} is not
   * checked; one with any other {@code Origin} is refused with 403 (the DNS-rebinding guard of
   * the MCP specification, basic/transports, "Security Warning").
   *
   * @throws NullPointerException if an origin is null
   */
  public final B allowedOrigins(String... origins) {
    config.allowedOrigins(origins);
    return self();
  }

  /**
   * More {@code Host} header values to accept, as {@code name:port} (e.g. {@code
   * mcp.example.com:443}; compared ignoring case), or {@code "*"} for any. Adds to the ones given
   * before. Default: none beyond the loopback names ({@code 127.0.0.1}, {@code localhost},
   * {@code [::1]}) and the bound address, with the port the request arrived on, which are always
   * accepted. Any other {@code Host}, or none, is refused with 403. Behind a proxy or on a public
   * name, list the names clients use.
   *
   * @throws NullPointerException if a host is null
   */
  public final B allowedHosts(String... hosts) {
    config.allowedHosts(hosts);
    return self();
  }

  /**
   * Most open sessions, both transports together (default 1024). An {@code initialize} beyond it
   * is refused with 503 until a session ends. The same number bounds the 2026-07-28 requests in
   * progress, counted apart (each has its own short-lived session): one beyond it is refused with
   * 503 and -32000.
   *
   * @throws IllegalArgumentException if less than 1
   */
  public final B maxSessions(int max) {
    config.maxSessions(max);
    return self();
  }

  /**
   * Most open sessions one client may hold, both transports together (default 64), beside
   * {@link #maxSessions}. A client is its remote IP address, as the container reports it (behind
   * a proxy, every client shares the proxy's address: raise the limit there). An {@code
   * initialize} beyond it is refused with 429 Too Many Requests and a JSON-RPC error body (code
   * -32000) until one of that client's sessions ends; other clients are not affected.
   *
   * @throws IllegalArgumentException if less than 1
   */
  public final B maxSessionsPerClient(int max) {
    config.maxSessionsPerClient(max);
    return self();
  }

  /**
   * How long a POST body may take to arrive once the request's headers are in (default 30 s).
   * A body still incomplete after that is answered 408 Request Timeout with a JSON-RPC error
   * body, and the connection is closed. Waiting holds no thread.
   *
   * @throws NullPointerException if {@code timeout} is null
   * @throws IllegalArgumentException if not positive
   */
  public final B requestBodyTimeout(Duration timeout) {
    config.requestBodyTimeout(timeout);
    return self();
  }

  /**
   * How long a session with no request in flight, no open stream and no activity may stay before
   * it ends (default 10 minutes); later requests with its id get 404. Checked by the housekeeping
   * timer at least once a second.
   *
   * @throws NullPointerException if {@code timeout} is null
   * @throws IllegalArgumentException if not positive
   */
  public final B sessionIdleTimeout(Duration timeout) {
    config.sessionIdleTimeout(timeout);
    return self();
  }

  /**
   * Largest POST body accepted, in bytes (default 4 MiB); a larger one is refused with 413, by
   * its {@code Content-Length} or as soon as reading passes the limit. The JSON itself is also
   * bounded in nesting depth by the codec (deeper is 400 with -32700).
   *
   * @throws IllegalArgumentException if less than 1
   */
  public final B maxBodyBytes(int max) {
    config.maxBodyBytes(max);
    return self();
  }

  /**
   * Makes this endpoint an OAuth 2.1 protected resource (MCP 2025-11-25 basic/authorization;
   * docs/authorization.md). Every MCP request (POST, GET and DELETE, every protocol era, the
   * 2024-11-05 HTTP+SSE transport too) must carry {@code Authorization: Bearer <token>} that
   * {@code resource}'s {@link dev.herald.auth.TokenVerifier} accepts:
   *
   * <ul>
   *   <li>no token, or another scheme: {@code 401} with {@code WWW-Authenticate: Bearer
   *       resource_metadata="<metadata URL>", scope="<challenge scopes>"};
   *   <li>a malformed header (empty token, extra spaces, characters outside RFC 6750's
   *       b64token, more than one {@code Authorization} header, a token over 4 KiB) or a token
   *       in the query string: {@code 401} with {@code error="invalid_request"}, without calling
   *       the verifier;
   *   <li>a token the verifier refuses, or does not verify within {@link
   *       dev.herald.auth.ProtectedResource#verificationTimeout}: {@code 401} with {@code
   *       error="invalid_token"} and the verifier's message as {@code error_description};
   *   <li>a call of a tool, resource or prompt whose scopes ({@code
   *       McpServer.Builder#toolScopes}) the token lacks: {@code 403} with {@code
   *       error="insufficient_scope"} and the needed scopes; the handler does not run.
   * </ul>
   *
   * The protected resource metadata (RFC 9728) is served at {@link
   * dev.herald.auth.ProtectedResource#metadataUri()} (for {@code https://host/mcp}: {@code
   * /.well-known/oauth-protected-resource/mcp}) and at the root {@code
   * /.well-known/oauth-protected-resource}, without a token. On {@code McpServlet}, map the
   * servlet to those paths as well for it to answer them.
   *
   * <p>What a request creates belongs to its principal: a session ({@code Mcp-Session-Id}) and
   * its streams are refused to any other party with {@code 404}, as an unknown session; tasks,
   * {@code requestState} and listens are bound to the party too. Verification runs on its own
   * virtual thread and holds no lock: a slow verifier delays only the requests waiting for it.
   *
   * @throws NullPointerException if {@code resource} is null
   */
  public final B authorization(dev.herald.auth.ProtectedResource resource) {
    config.authorization(resource);
    return self();
  }

  /**
   * Makes this server a node of a cluster (docs/scale-out.md): any node behind a load balancer,
   * with no sticky sessions, serves any request of any session; the session's state is shared
   * through the cluster, and what must reach a stream held by another node is relayed to it.
   *
   * {@snippet :
   * RedisCluster cluster = RedisCluster.connect(URI.create("redis://127.0.0.1:6379"));
   * McpHttpServer http = McpHttpServer.builder().server(server).cluster(cluster).build().start();
   * }
   *
   * @throws NullPointerException if {@code member} is null
   * @throws IllegalArgumentException if {@code member} was not made by a Herald scale-out module
   */
  public final B cluster(ClusterMember member) {
    java.util.Objects.requireNonNull(member, "member");
    config.cluster(dev.herald.http.internal.ClusterSeams.of(member));
    return self();
  }

  /**
   * Where SSE events are kept so a client can resume a stream with {@code Last-Event-ID} (default:
   * {@link EventStore#inMemory(int, long, long, Duration) EventStore.inMemory} in this process,
   * keeping at most the last 512 events of each stream within the {@link #eventStoreLimits byte
   * and age bounds}).
   *
   * @throws NullPointerException if {@code store} is null
   */
  public final B eventStore(EventStore store) {
    config.eventStore(store);
    return self();
  }

  /**
   * The bounds of the default event store (used when no {@link #eventStore} is given): at most
   * {@code bytesPerStream} bytes of events per stream (default 1 MiB), {@code bytesPerServer}
   * bytes for every stream of every session together (default 64 MiB), and no event older than
   * {@code maxAge} (default 5 minutes). The oldest events are forgotten first. A client that
   * resumes with a {@code Last-Event-ID} after which events were forgotten is refused with 400,
   * as for an unknown event id, so it never receives a stream with a silent gap.
   *
   * @throws NullPointerException if {@code maxAge} is null
   * @throws IllegalArgumentException if a bound is not positive
   */
  public final B eventStoreLimits(long bytesPerStream, long bytesPerServer, Duration maxAge) {
    config.eventStoreLimits(bytesPerStream, bytesPerServer, maxAge);
    return self();
  }

  /**
   * Each stream connection's outbound queue: at most {@code events} events and {@code bytes}
   * bytes waiting to be written (default 1024 events and 4 MiB). A reader that falls further
   * behind loses its connection, not the events: it can resume with {@code Last-Event-ID} from the
   * {@link #eventStore event store}.
   *
   * @throws IllegalArgumentException if either is less than 1
   */
  public final B streamQueueLimit(int events, long bytes) {
    config.streamQueueLimit(events, bytes);
    return self();
  }

  /**
   * SSE polling (protocol 2025-11-25 and later): a request still running after {@code interval}
   * has its connection closed after the priming event, and the client picks up the rest with GET
   * and {@code Last-Event-ID} after the {@link #sseRetry retry} delay. {@link Duration#ZERO} (the
   * default) never closes a request's stream early; a handler can still ask for it with {@code
   * RequestContext.pollStream()}.
   *
   * @throws NullPointerException if {@code interval} is null
   * @throws IllegalArgumentException if negative
   */
  public final B ssePollingInterval(Duration interval) {
    config.ssePollingInterval(interval);
    return self();
  }

  /**
   * The {@code retry} field sent at the start of every stream, in whole milliseconds: how long a
   * client waits before reconnecting to a closed stream (default 1 s; zero is allowed).
   *
   * @throws NullPointerException if {@code retry} is null
   * @throws IllegalArgumentException if negative
   */
  public final B sseRetry(Duration retry) {
    config.sseRetry(retry);
    return self();
  }

  /**
   * How long an SSE connection (a standing GET stream, or a request's stream once it switched to
   * SSE) may stay silent before a keep-alive comment is written to it (default 15 s); see {@link
   * #sseKeepAliveFailures} for what a keep-alive that cannot be written does. Keep it below the
   * idle timeouts of proxies and containers in between. A 2026-07-28 request's stream gets one
   * after this interval or {@linkplain #statelessStreamAfter its own probe interval} of silence,
   * whichever is shorter: a client that left is noticed when the write fails, and its leaving
   * cancels the request.
   *
   * @throws NullPointerException if {@code interval} is null
   * @throws IllegalArgumentException if not positive
   */
  public final B sseKeepAlive(Duration interval) {
    config.sseKeepAlive(interval);
    return self();
  }

  /**
   * How long a 2026-07-28 request may go without an answer before its exchange turns into an SSE
   * stream, and then how often a silent stream gets a keep-alive comment (default 1 s; never more
   * than {@link #sseKeepAlive}). A call answered within it gets a plain JSON answer; a longer one
   * gets {@code text/event-stream} with keep-alive comments and then its answer (MCP 2026-07-28
   * basic/transports: the server chooses either form). The probe is also how a client that left
   * is noticed: a container reports a closed connection only when a write to it fails, and that
   * departure cancels the request, so a longer interval notices a departed client later. Raise it
   * when clients or proxies in between handle plain JSON answers better than streams.
   *
   * @throws NullPointerException if {@code wait} is null
   * @throws IllegalArgumentException if not positive
   */
  public final B statelessStreamAfter(Duration wait) {
    config.statelessStreamAfter(wait);
    return self();
  }

  /**
   * How many keep-alive comments in a row a session's streams may fail before the session is
   * evicted (default 3). A keep-alive fails when it cannot be written: the connection's previous
   * write is still outstanding when the keep-alive is due, as it is for a client that vanished
   * without closing its connection (it stopped reading, or the network dropped it). When one of a
   * Streamable HTTP session's connections has not taken a keep-alive for this many {@linkplain
   * #sseKeepAlive intervals} and the client sent nothing meanwhile, the session ends as if deleted
   * (MCP 2025-11-25 basic/transports, "Session Management"): its connections are aborted, its
   * running requests cancelled, its session-bound tasks cancelled, and its slot freed. A 2024-11-05
   * HTTP+SSE session whose stream stalls so ends too. A connection whose write fails outright ends
   * at once; its session then ends by the {@linkplain #sessionIdleTimeout idle timeout}.
   *
   * @throws IllegalArgumentException if less than 1
   */
  public final B sseKeepAliveFailures(int failures) {
    config.sseKeepAliveFailures(failures);
    return self();
  }

  /**
   * The clock for session idleness (default {@link Ticker#system()}); tests pass a fake one.
   *
   * @throws NullPointerException if {@code ticker} is null
   */
  public final B ticker(Ticker ticker) {
    config.ticker(ticker);
    return self();
  }

  /**
   * The timer for housekeeping (idle sessions, keep-alive comments) and SSE polling (default
   * {@link Scheduler#system()}); tests pass a fake one.
   *
   * @throws NullPointerException if {@code scheduler} is null
   */
  public final B scheduler(Scheduler scheduler) {
    config.scheduler(scheduler);
    return self();
  }
}
