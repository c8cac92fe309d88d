package dev.herald.http.internal;

import static dev.herald.http.internal.HttpExchanges.reject;

import dev.herald.auth.Principal;
import dev.herald.session.Scheduler;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Checks every request (Host, Origin, path, method, headers, body) and hands what passes to the
 * session it names.
 *
 * <p>Design note (spec 2025-11-25 basic/transports §Streamable HTTP, §Security Warning, §Session
 * Management, §Protocol Version Header). Checks run cheapest first and every refusal carries an
 * id-less JSON-RPC error body, so a client always learns why. Nothing here blocks: bodies are
 * read through {@link Exchange#readBody}, and an exchange waiting for its answer is left to its
 * {@link SseStream}. Written against {@link Exchange} only, so Jetty and servlets share it.
 *
 * <p>Stateless apart from the endpoint it serves; thread-safe.
 */
final class Requests {
  private final Endpoint endpoint;
  private final EndpointConfig config;
  private final StatelessPost stateless;

  Requests(Endpoint endpoint) {
    this.endpoint = endpoint;
    this.config = endpoint.config;
    this.stateless = new StatelessPost(endpoint);
  }

  void handle(Exchange ex) {
    int port = ex.localPort();
    if (!endpoint.hostCheck.hostAllowed(ex.header("Host"), port)) {
      reject(ex, 403, "Forbidden: Host not allowed");
      return;
    }
    if (!endpoint.hostCheck.originAllowed(ex.header("Origin"), port)) {
      reject(ex, 403, "Forbidden: Origin not allowed");
      return;
    }
    BearerAuth auth = endpoint.auth;
    if (auth == null) {
      route(ex, null);
      return;
    }
    if (auth.isMetadataRequest(ex)) {
      auth.serveMetadata(ex); // RFC 9728: public, no token
      return;
    }
    String path = ex.path();
    boolean mcp =
        config.path.equals(path)
            || (legacy()
                && (config.legacySsePath.equals(path) || config.legacyPostPath.equals(path)));
    if (mcp) {
      auth.authenticate(ex, principal -> route(ex, principal)); // or 401
    } else {
      route(ex, null);
    }
  }

  /**
   * Routes a request that passed the Host, Origin and bearer-token checks; {@code principal} is
   * its token's (null on an open endpoint).
   */
  private void route(Exchange ex, @Nullable Principal principal) {
    String path = ex.path();
    String method = ex.method();
    if (config.path.equals(path)) {
      switch (method) {
        case "POST" -> post(ex, principal);
        case "GET" -> get(ex, principal);
        case "DELETE" -> delete(ex, principal);
        default -> notAllowed(ex, config.mcp.eras().handshake() ? "GET, POST, DELETE" : "POST");
      }
    } else if (legacy() && config.legacySsePath.equals(path)) {
      if ("GET".equals(method)) {
        legacyGet(ex, principal);
      } else {
        notAllowed(ex, "GET");
      }
    } else if (legacy() && config.legacyPostPath.equals(path)) {
      if ("POST".equals(method)) {
        legacyPost(ex, principal);
      } else {
        notAllowed(ex, "POST");
      }
    } else {
      reject(ex, 404, "Not Found");
    }
  }

  /** The 2024-11-05 HTTP+SSE endpoints are served only while the handshake era is. */
  private boolean legacy() {
    return config.legacy && config.mcp.eras().handshake();
  }

  // ---------------------------------------------------------------- Streamable HTTP

  private void post(Exchange ex, @Nullable Principal principal) {
    String accept = ex.header("Accept");
    if (!HttpExchanges.accepts(accept, HttpExchanges.JSON)
        || !HttpExchanges.accepts(accept, HttpExchanges.SSE)) {
      reject(ex, 406, "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    if (!HttpExchanges.isJson(ex.header("Content-Type"))) {
      reject(ex, 415, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    readMessage(
        ex,
        message -> {
          if (lacksScope(ex, message, principal)) {
            return;
          }
          // Era routing comes first, before any session is looked up (MCP 2026-07-28
          // basic/versioning, "Backward Compatibility").
          if (StatelessPost.isStateless(ex.header(HttpExchanges.PROTOCOL_HEADER), message)) {
            stateless.serve(ex, message, principal);
            return;
          }
          if (!config.mcp.eras().handshake()) {
            handshakeRefused(ex, message);
            return;
          }
          if (!versionOk(ex)) {
            return;
          }
          String sessionId = ex.header(HttpExchanges.SESSION_HEADER);
          if (sessionId == null) {
            if (message instanceof JsonRpcMessage.Request r
                && McpMethods.INITIALIZE.equals(r.method())) {
              String client = ex.remoteAddress();
              if (refused(ex, r.id(), endpoint.reserveSession(client))) {
                return;
              }
              endpoint.newSession(client, principal).acceptRequest(r, ex, true, principal);
            } else if (message instanceof JsonRpcMessage.Request r) {
              // a request before initialize: answered with its own id, as JSON-RPC asks
              HttpExchanges.error(
                  ex,
                  400,
                  r.id(),
                  ErrorCodes.INVALID_REQUEST,
                  "Bad Request: Mcp-Session-Id header is required");
            } else {
              reject(ex, 400, "Bad Request: Mcp-Session-Id header is required");
            }
            return;
          }
          withSession(sessionId, ex, principal, session -> postTo(session, message, ex, principal));
        });
  }

  /**
   * Whether a request needs scopes its principal lacks (a tool, resource or prompt declared with
   * {@code McpServer.Builder#toolScopes} and its kin): answered {@code 403 insufficient_scope}
   * here, before any session sees it, so the handler never runs (MCP 2025-11-25
   * basic/authorization, "Scope Challenge Handling"). The method table asks the same question
   * again before the handler (for a session's own entries, whose uri resolution this cannot see).
   */
  private boolean lacksScope(Exchange ex, JsonRpcMessage message, @Nullable Principal principal) {
    BearerAuth auth = endpoint.auth;
    if (principal == null || auth == null || !(message instanceof JsonRpcMessage.Request r)) {
      return false;
    }
    java.util.Set<String> needed = config.mcp.requiredScopes(r.method(), r.params());
    if (principal.hasScopes(needed)) {
      return false;
    }
    auth.insufficientScope(ex, r.id(), needed);
    return true;
  }

  private void postTo(
      HttpSession session, JsonRpcMessage message, Exchange ex, @Nullable Principal principal) {
    if (message instanceof JsonRpcMessage.Request r) {
      if (!session.acceptRequest(r, ex, false, principal)) {
        HttpExchanges.error(
            ex,
            400,
            r.id(),
            ErrorCodes.INVALID_REQUEST,
            "Invalid request: id " + r.id() + " is already in use by an open request");
      }
    } else {
      ClusterLink link = endpoint.cluster;
      if (link == null) {
        session.deliver(new DecodedMessage.Valid(message), principal);
        HttpExchanges.empty(ex, 202, session.id);
        return;
      }
      // In a cluster, on a virtual thread: a state change it makes (notifications/initialized)
      // is recorded before the 202, so the client's next request, on any node, sees it.
      Thread.ofVirtual()
          .name("herald-cluster-notification")
          .start(() -> {
            if (!link.forwardedElsewhere(session, message)) {
              session.deliver(new DecodedMessage.Valid(message), principal);
            } else {
              session.touch();
            }
            HttpExchanges.empty(ex, 202, session.id);
          });
    }
  }

  /**
   * Hands {@code ex} to the session {@code id}: this node's, or in a cluster one restored from the
   * directory (docs/scale-out.md); else answers 404 (or 503 when the directory cannot be reached).
   */
  private void withSession(
      String id, Exchange ex, @Nullable Principal principal, Consumer<HttpSession> use) {
    // A session belongs to the party that created it: to anyone else it is unknown (404), so a
    // stolen or guessed id, or a resumption with another's Last-Event-ID, reveals nothing.
    Consumer<HttpSession> then =
        principal == null
            ? use
            : session -> {
              if (session.ownedBy(principal)) {
                use.accept(session);
              } else {
                reject(ex, 404, "Session not found");
              }
            };
    HttpSession local = endpoint.sessions.get(id);
    ClusterLink link = endpoint.cluster;
    if ((local != null && !local.isClosed()) || link == null) {
      HttpSession session = session(id, ex);
      if (session != null) {
        if (link != null) {
          link.used(session);
        }
        then.accept(session);
      }
      return;
    }
    link.withSession(id, ex, then);
  }

  /**
   * A handshake-era POST to a server that serves only 2026-07-28: refused with -32022 naming the
   * versions it serves (MCP 2026-07-28 basic/versioning), no session made, {@code Mcp-Session-Id}
   * ignored.
   */
  private void handshakeRefused(Exchange ex, JsonRpcMessage message) {
    String requested = ex.header(HttpExchanges.PROTOCOL_HEADER);
    if (message instanceof JsonRpcMessage.Request r && r.params() != null) {
      tools.jackson.databind.JsonNode v = r.params().get("protocolVersion");
      if (v != null && v.isString()) {
        requested = v.stringValue();
      }
    }
    var e =
        dev.herald.wire.RequestMeta.unsupportedVersion(
            requested == null ? ProtocolVersion.HTTP_DEFAULT.wire() : requested.strip(),
            stateless.advertised());
    HttpExchanges.error(
        ex,
        400,
        message instanceof JsonRpcMessage.Request r ? r.id() : null,
        e.code(),
        e.toErrorObject().message(),
        e.data());
  }

  /**
   * Whether a GET or DELETE comes from the 2026 era or reaches a modern-only server: answered 405
   * (MCP 2026-07-28 streamable-http, "POST only"; {@code Mcp-Session-Id} is not read).
   */
  private boolean postOnly(Exchange ex) {
    String v = ex.header(HttpExchanges.PROTOCOL_HEADER);
    var version =
        v == null ? java.util.Optional.<ProtocolVersion>empty() : ProtocolVersion.parse(v.strip());
    if (!config.mcp.eras().handshake() || (version.isPresent() && !version.get().handshake())) {
      notAllowed(ex, "POST");
      return true;
    }
    return false;
  }

  private void get(Exchange ex, @Nullable Principal principal) {
    if (postOnly(ex)) {
      return;
    }
    if (!HttpExchanges.accepts(ex.header("Accept"), HttpExchanges.SSE)) {
      reject(ex, 406, "Not Acceptable: Accept must list text/event-stream");
      return;
    }
    if (!versionOk(ex)) {
      return;
    }
    String sessionId = ex.header(HttpExchanges.SESSION_HEADER);
    if (sessionId == null) {
      reject(ex, 400, "Bad Request: Mcp-Session-Id header is required");
      return;
    }
    withSession(sessionId, ex, principal, session -> getFrom(session, ex));
  }

  private void getFrom(HttpSession session, Exchange ex) {
    String lastEventId = ex.header(HttpExchanges.LAST_EVENT_ID);
    SseStream stream;
    long after = -1;
    if (lastEventId == null) {
      stream = session.standing();
    } else {
      int sep = lastEventId.indexOf('_');
      stream = sep <= 0 ? null : session.stream(lastEventId.substring(0, sep));
      after = sep <= 0 ? -1 : parseSeq(lastEventId.substring(sep + 1));
      ClusterLink link = endpoint.cluster;
      if (stream == null && after >= 0 && link != null) {
        // produced by another node, maybe one that died: resumed from the shared store
        link.resume(
            session,
            lastEventId.substring(0, sep),
            after,
            ex,
            (s, from, prelude) -> attachTo(session, s, from, ex, prelude));
        return;
      }
      if (stream == null || after < 0) {
        reject(ex, 400, "Bad Request: unknown Last-Event-ID");
        return;
      }
      if (stream.cancelled()) {
        // Its request was cancelled, so no response will ever come: nothing to resume. An empty
        // SSE stream would look like a drop to clients that resume until the response arrives.
        HttpExchanges.empty(ex, 204, session.id);
        return;
      }
    }
    attachTo(session, stream, after, ex, java.util.List.of());
  }

  /**
   * Attaches the GET {@code ex} to {@code stream}, writing {@code prelude} first; true if it was
   * attached.
   */
  private boolean attachTo(
      HttpSession session,
      SseStream stream,
      long after,
      Exchange ex,
      java.util.List<SseSink.Frame> prelude) {
    SseSink sink = session.newSink(ex, stream.sinkLock());
    ex.keepOpen(); // keep-alive comments keep it honest
    ex.onPeerGone(sink::fail);
    switch (stream.attach(sink, after, prelude)) {
      case OK -> {
        session.touch();
        ClusterLink link = endpoint.cluster;
        if (link != null && after < 0) {
          link.openedHere(session); // the standing stream is on this node now
        }
        if (after < 0) {
          session.events().streamOpened(stream.kind());
        } else {
          session.events().streamResumed(stream.kind());
        }
        return true;
      }
      case CONFLICT -> reject(ex, 409, "Conflict: this session already has an open GET stream");
      case GONE -> reject(ex, 404, "Session not found");
      case FORGOTTEN -> reject(ex, 400, "Bad Request: unknown Last-Event-ID");
      case UNAVAILABLE ->
          HttpExchanges.error(
              ex,
              503,
              null,
              dev.herald.wire.ErrorCodes.INTERNAL_ERROR,
              "Service unavailable: the event store cannot be read; resume again");
    }
    return false;
  }

  private void delete(Exchange ex, @Nullable Principal principal) {
    if (postOnly(ex)) {
      return;
    }
    String sessionId = ex.header(HttpExchanges.SESSION_HEADER);
    if (sessionId == null) {
      reject(ex, 400, "Bad Request: Mcp-Session-Id header is required");
      return;
    }
    withSession(
        sessionId,
        ex,
        principal,
        session -> {
          session.end();
          ClusterLink link = endpoint.cluster;
          if (link != null) {
            link.seam.ended(session.id); // it ends on every node
          }
          HttpExchanges.empty(ex, 200, null);
        });
  }

  private @Nullable HttpSession session(String id, Exchange ex) {
    HttpSession session = endpoint.sessions.get(id);
    if (session == null || session.isClosed()) {
      reject(ex, 404, "Session not found");
      return null;
    }
    return session;
  }

  private static boolean versionOk(Exchange ex) {
    String v = null;
    for (String value : ex.headers(HttpExchanges.PROTOCOL_HEADER)) {
      if (ProtocolVersion.parse(value.trim()).isEmpty()) {
        v = value;
        break;
      }
    }
    if (v == null) {
      return true; // absent means 2025-03-26; every supported version is accepted
    }
    HttpExchanges.error(
        ex,
        400,
        null,
        ErrorCodes.INVALID_REQUEST,
        "Bad Request: unsupported MCP-Protocol-Version",
        HttpExchanges.supportedVersions(v));
    return false;
  }

  private static long parseSeq(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return -1;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(s);
  }

  /**
   * Reads and decodes one message; refusals (413, 400, 408) are answered here. A body still
   * incomplete after the configured timeout is answered 408 by the housekeeping timer, so no
   * thread waits for it; the read's own failure later finds the exchange settled and does nothing.
   */
  private void readMessage(Exchange ex, Consumer<JsonRpcMessage> then) {
    if (!utf8(ex.header("Content-Type"))) {
      reject(
          ex, 415, "Unsupported Media Type: the body must be UTF-8 (charset=utf-8 or no charset)");
      return;
    }
    int max = config.maxBodyBytes;
    if (ex.contentLength() > max) {
      reject(ex, 413, "Content Too Large: the body limit is " + max + " bytes");
      return;
    }
    AtomicBoolean settled = new AtomicBoolean();
    AtomicReference<Scheduler.@Nullable Cancellable> timer = new AtomicReference<>();
    ex.readBody(
        max,
        body -> {
          if (!settled.compareAndSet(false, true)) {
            return;
          }
          cancel(timer);
          if (body == null) {
            reject(ex, 413, "Content Too Large: the body limit is " + max + " bytes");
            return;
          }
          switch (MessageCodec.decode(body)) {
            case DecodedMessage.Valid v -> then.accept(v.message());
            case DecodedMessage.Invalid bad ->
                HttpExchanges.error(ex, 400, bad.id(), bad.error().code(), bad.error().message());
            case DecodedMessage.Batch b ->
                reject(
                    ex,
                    400,
                    "Invalid request: batches are not supported; send one message per POST");
          }
        },
        failure -> {
          if (!settled.compareAndSet(false, true)) {
            return;
          }
          cancel(timer);
          if (failure instanceof TimeoutException
              || failure.getCause() instanceof TimeoutException) {
            bodyTimedOut(ex); // the container's own idle timeout came first
          } else {
            ex.abort(failure); // the client went away: nobody to answer
          }
        });
    if (!settled.get()) { // the body is still on its way: time it (most arrive with the headers)
      Scheduler.Cancellable t =
          config.scheduler.schedule(
              () -> {
                if (settled.compareAndSet(false, true)) {
                  bodyTimedOut(ex);
                }
              },
              config.bodyTimeoutNanos);
      if (!timer.compareAndSet(null, t)) {
        t.cancel(); // the body arrived meanwhile
      }
    }
  }

  private static final Scheduler.Cancellable DONE = () -> {};

  private static void cancel(AtomicReference<Scheduler.@Nullable Cancellable> timer) {
    Scheduler.Cancellable t = timer.getAndSet(DONE);
    if (t != null) {
      t.cancel();
    }
  }

  private void bodyTimedOut(Exchange ex) {
    ex.header("Connection", "close");
    reject(
        ex,
        408,
        "Request Timeout: the request body did not arrive within "
            + TimeUnit.NANOSECONDS.toMillis(config.bodyTimeoutNanos)
            + " ms");
  }

  /**
   * Answers a refused session reservation: 503 when the endpoint is full (the server is busy for
   * everyone), 429 when this client holds its share (this client is sending too much; RFC 6585),
   * both with a JSON-RPC error body naming the limit.
   *
   * @return true if refused (and answered)
   */
  private boolean refused(
      Exchange ex, dev.herald.wire.@Nullable RequestId id, Endpoint.Admission admission) {
    switch (admission) {
      case OK -> {
        return false;
      }
      case FULL ->
          HttpExchanges.error(
              ex,
              503,
              id,
              ErrorCodes.LIMIT_EXCEEDED,
              "Server busy: the session limit ("
                  + config.maxSessions
                  + ") is reached; try again later");
      case CLIENT_FULL ->
          HttpExchanges.error(
              ex,
              429,
              id,
              ErrorCodes.LIMIT_EXCEEDED,
              "Too many sessions: this client's session limit ("
                  + config.maxSessionsPerClient
                  + ") is reached; end a session or try again later");
    }
    return true;
  }

  /**
   * Whether a JSON {@code Content-Type} allows UTF-8: no {@code charset} parameter, or {@code
   * utf-8} (RFC 8259 §8.1: JSON exchanged between systems is UTF-8; the body's bytes are checked
   * by the codec as well).
   */
  static boolean utf8(@Nullable String contentType) {
    if (contentType == null || contentType.indexOf(';') < 0) {
      return true; // no parameters, so no charset
    }
    for (String param : contentType.split(";", -1)) {
      int eq = param.indexOf('=');
      if (eq > 0 && param.substring(0, eq).trim().equalsIgnoreCase("charset")) {
        String value = param.substring(eq + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        if (!value.equalsIgnoreCase("utf-8") && !value.equalsIgnoreCase("utf8")) {
          return false;
        }
      }
    }
    return true;
  }

  private static void notAllowed(Exchange ex, String allow) {
    ex.header("Allow", allow);
    reject(ex, 405, "Method Not Allowed");
  }

  // ---------------------------------------------------------------- legacy HTTP+SSE

  private void legacyGet(Exchange ex, @Nullable Principal principal) {
    String client = ex.remoteAddress();
    if (refused(ex, null, endpoint.reserveSession(client))) {
      return;
    }
    SseSink sink = new SseSink(ex, config.queueFrames, config.queueBytes, null, System.nanoTime());
    ex.keepOpen();
    ex.onPeerGone(sink::fail);
    LegacySession session = new LegacySession(endpoint, Endpoint.newSessionId(), sink, principal);
    endpoint.bind(session.id, client);
    endpoint.legacySessions.put(session.id, session);
    session.open(ex.mountPrefix() + config.legacyPostPath);
  }

  private void legacyPost(Exchange ex, @Nullable Principal principal) {
    if (!HttpExchanges.isJson(ex.header("Content-Type"))) {
      reject(ex, 415, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    String id = ex.queryParameter("sessionId");
    LegacySession session = id == null ? null : endpoint.legacySessions.get(id);
    if (session == null
        || session.isClosed()
        || (principal != null && !BearerAuth.sameParty(session.owner, principal))) {
      reject(ex, 404, "Session not found"); // another party's session is an unknown one
      return;
    }
    readMessage(
        ex,
        message -> {
          if (lacksScope(ex, message, principal)) {
            return;
          }
          session.deliver(new DecodedMessage.Valid(message), principal);
          ex.status(202);
          ex.write(
              java.nio.ByteBuffer.wrap(HttpExchanges.ascii("Accepted")),
              true,
              HttpExchanges.IGNORE);
        });
  }
}
