package dev.herald.http.internal;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.session.Scheduler;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The endpoint as an OAuth 2.1 resource server (MCP 2025-11-25 basic/authorization; RFC 6750,
 * RFC 9728): reads the bearer token of every MCP request, verifies it, and answers the refusals
 * with their challenges; serves the protected resource metadata document.
 *
 * <p>Design note. The token is taken only from one {@code Authorization: Bearer} header (RFC 6750
 * section 2.1; the specification forbids tokens in the query string). The header is checked
 * before the verifier sees anything: another scheme is a plain {@code 401} (no token was
 * offered), and an empty, oddly spaced, non-token68, repeated or over-long ({@link
 * #MAX_TOKEN_CHARS}) one is {@code 401 invalid_request}, all without calling the verifier. The
 * verifier then runs on its own virtual thread, holding no lock, so a slow JWKS or introspection
 * endpoint delays only the requests that wait for it; {@link ProtectedResource#verificationTimeout}
 * bounds that wait as a backstop (the verifier is interrupted and the token refused). The
 * container thread never waits. Each challenge names the metadata URL built from the configured
 * canonical URI, never from the request's {@code Host}.
 *
 * <p>Immutable; thread-safe.
 */
final class BearerAuth {
  private static final System.Logger LOG = System.getLogger("dev.herald.http.auth");

  /**
   * The longest bearer token read (4 KiB, several times a signed JWT with the usual claims); a
   * longer one is refused without calling the verifier. (The container refuses headers past its
   * own limit first: Jetty answers 431 beyond 8 KiB of headers.)
   */
  static final int MAX_TOKEN_CHARS = 4096;

  private final ProtectedResource resource;
  private final Scheduler scheduler;
  private final String metadataUrl;
  private final String pathMetadata;
  private final byte[] metadataJson;
  private final @Nullable String challengeScope;

  BearerAuth(ProtectedResource resource, Scheduler scheduler) {
    this.resource = resource;
    this.scheduler = scheduler;
    this.metadataUrl = resource.metadataUri().toString();
    this.pathMetadata = resource.metadataPath();
    this.metadataJson = McpJson.mapper().writeValueAsBytes(resource.metadata());
    List<String> scopes = resource.challengeScopes();
    this.challengeScope = scopes.isEmpty() ? null : String.join(" ", scopes);
  }

  // ---------------------------------------------------------------- metadata (RFC 9728)

  /**
   * Whether {@code ex} asks for the metadata document: at the path RFC 9728 section 3.1 derives
   * from the resource's URI, or at the root well-known path (for clients that probe it).
   */
  boolean isMetadataRequest(Exchange ex) {
    String p = ex.path();
    String full = "/".equals(p) ? ex.mountPrefix() : ex.mountPrefix() + p;
    return full.equals(pathMetadata) || full.equals(ProtectedResource.WELL_KNOWN);
  }

  /** Serves the metadata document: GET only, never cached stale for long. */
  void serveMetadata(Exchange ex) {
    if (!"GET".equals(ex.method())) {
      ex.header("Allow", "GET");
      HttpExchanges.reject(ex, 405, "Method Not Allowed");
      return;
    }
    ex.header("Cache-Control", "max-age=300");
    HttpExchanges.json(ex, 200, metadataJson, null);
  }

  // ---------------------------------------------------------------- bearer tokens (RFC 6750)

  /**
   * Authenticates {@code ex}: calls {@code then} with the principal of its valid bearer token, on
   * a virtual thread, or answers {@code 401} with the challenge and never calls it.
   */
  void authenticate(Exchange ex, Consumer<Principal> then) {
    if (ex.queryParameter("access_token") != null) {
      unauthorized(
          ex, "invalid_request", "access tokens are accepted only in the Authorization header");
      return;
    }
    List<String> headers = ex.headers("Authorization");
    if (headers.isEmpty()) {
      unauthorized(ex, null, null);
      return;
    }
    if (headers.size() > 1) {
      unauthorized(ex, "invalid_request", "more than one Authorization header");
      return;
    }
    String value = headers.get(0);
    int sp = value.indexOf(' ');
    String scheme = sp < 0 ? value : value.substring(0, sp);
    if (!"Bearer".equalsIgnoreCase(scheme)) {
      unauthorized(ex, null, null); // another scheme offers no bearer token
      return;
    }
    String token = sp < 0 ? "" : value.substring(sp + 1);
    String malformed = malformed(token);
    if (malformed != null) {
      unauthorized(ex, "invalid_request", malformed);
      return;
    }
    verify(ex, token, then);
  }

  /** Why {@code token} is not a bearer token (RFC 6750 section 2.1, b64token), or null. */
  static @Nullable String malformed(String token) {
    if (token.isEmpty()) {
      return "the bearer token is empty";
    }
    if (token.length() > MAX_TOKEN_CHARS) {
      return "the bearer token is longer than " + MAX_TOKEN_CHARS + " characters";
    }
    int i = 0;
    int n = token.length();
    while (i < n && b64(token.charAt(i))) {
      i++;
    }
    if (i == 0) {
      return "the bearer token is malformed";
    }
    while (i < n && token.charAt(i) == '=') {
      i++;
    }
    return i == n ? null : "the bearer token is malformed";
  }

  private static boolean b64(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~'
        || c == '+'
        || c == '/';
  }

  private void verify(Exchange ex, String token, Consumer<Principal> then) {
    AtomicBoolean settled = new AtomicBoolean();
    AtomicReference<Scheduler.@Nullable Cancellable> timer = new AtomicReference<>();
    Thread verifying =
        Thread.ofVirtual()
            .name("herald-verify")
            .unstarted(() -> {
              Principal p;
              try {
                p = resource.verifier().verify(token);
              } catch (InvalidTokenException e) {
                if (settle(settled, timer)) {
                  unauthorized(ex, "invalid_token", e.getMessage());
                }
                return;
              } catch (RuntimeException | Error e) {
                if (settle(settled, timer)) {
                  LOG.log(System.Logger.Level.WARNING, "token verifier failed", e);
                  unauthorized(ex, "invalid_token", "the token could not be verified");
                }
                return;
              }
              if (!settle(settled, timer)) {
                return; // timed out meanwhile: already answered
              }
              Instant exp = p == null ? null : p.expiresAt();
              if (p == null) {
                unauthorized(ex, "invalid_token", "the token could not be verified");
              } else if (exp != null && !exp.isAfter(Instant.now())) {
                unauthorized(ex, "invalid_token", "the token has expired");
              } else {
                closeAtExpiry(ex, exp);
                proceed(ex, p, then);
              }
            });
    Scheduler.Cancellable t =
        scheduler.schedule(
            () -> {
              if (settled.compareAndSet(false, true)) {
                verifying.interrupt();
                unauthorized(ex, "invalid_token", "the token could not be verified in time");
              }
            },
            resource.verificationTimeout().toNanos());
    if (!timer.compareAndSet(null, t)) {
      t.cancel();
    }
    verifying.start();
  }

  /**
   * A Streamable HTTP {@code GET} (the standing stream, or a resumption; it carries the session
   * id) lives as long as its token: at the token's expiry the response is aborted, so the client
   * resumes with {@code Last-Event-ID} and a valid token (a refreshed one), and nothing reaches a
   * party whose token has lapsed. A no-op for an exchange that ended before. Requests and
   * HTTP+SSE streams (whose stream is their session and cannot be resumed) are left alone.
   */
  private void closeAtExpiry(Exchange ex, @Nullable Instant exp) {
    if (exp == null || !"GET".equals(ex.method()) || ex.header(SESSION_ID) == null) {
      return;
    }
    long delay = Math.max(0, Duration.between(Instant.now(), exp).toNanos());
    Scheduler.Cancellable t =
        scheduler.schedule(
            () -> ex.abort(new InvalidTokenException("the access token expired")), delay);
    ex.onPeerGone(x -> t.cancel());
  }

  private static final String SESSION_ID = "Mcp-Session-Id";

  /**
   * Runs the request on as {@code p}. The continuation runs on the verifier's thread: if it
   * throws (a bug, or a module that cannot reach what it needs), the request is still answered
   * ({@code 500}, or aborted when the answer had begun) instead of hanging until the client gives
   * up.
   */
  private static void proceed(Exchange ex, Principal p, Consumer<Principal> then) {
    try {
      then.accept(p);
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.ERROR, "serving an authorized request failed", e);
      try {
        HttpExchanges.error(ex, 500, null, ErrorCodes.INTERNAL_ERROR, "Internal error");
      } catch (RuntimeException | Error again) {
        ex.abort(e);
      }
    }
  }

  private static boolean settle(
      AtomicBoolean settled, AtomicReference<Scheduler.@Nullable Cancellable> timer) {
    if (!settled.compareAndSet(false, true)) {
      return false;
    }
    Scheduler.Cancellable t = timer.getAndSet(() -> {});
    if (t != null) {
      t.cancel();
    }
    return true;
  }

  // ---------------------------------------------------------------- challenges

  /**
   * {@code 401} with {@code WWW-Authenticate: Bearer resource_metadata="...", scope="..."}, plus
   * {@code error} and {@code error_description} when a token (or a malformed attempt at one) was
   * refused (RFC 6750 section 3; RFC 9728 section 5.1).
   */
  void unauthorized(Exchange ex, @Nullable String error, @Nullable String description) {
    StringBuilder c = new StringBuilder("Bearer ");
    if (error != null) {
      c.append("error=\"").append(error).append("\", ");
      if (description != null) {
        c.append("error_description=\"").append(quotable(description)).append("\", ");
      }
    }
    c.append("resource_metadata=\"").append(metadataUrl).append('"');
    if (challengeScope != null) {
      c.append(", scope=\"").append(challengeScope).append('"');
    }
    ex.header("WWW-Authenticate", c.toString());
    HttpExchanges.error(
        ex,
        401,
        null,
        ErrorCodes.INVALID_REQUEST,
        "Unauthorized: "
            + (description != null ? quotable(description) : "a bearer access token is required"));
  }

  /**
   * {@code 403} with {@code WWW-Authenticate: Bearer error="insufficient_scope", scope="..."}
   * naming the scopes the request needs (MCP 2025-11-25 basic/authorization, "Scope Challenge
   * Handling"; the client adds them to what it holds and steps up).
   */
  void insufficientScope(Exchange ex, @Nullable RequestId id, Set<String> needed) {
    String scopes = String.join(" ", new TreeSet<>(needed));
    ex.header(
        "WWW-Authenticate",
        "Bearer error=\"insufficient_scope\", scope=\""
            + scopes
            + "\", resource_metadata=\""
            + metadataUrl
            + "\", error_description=\"this request needs the scopes "
            + scopes
            + "\"");
    HttpExchanges.error(
        ex,
        403,
        id,
        ErrorCodes.INVALID_REQUEST,
        "Forbidden: insufficient scope; this request needs " + scopes);
  }

  /** RFC 6750 section 3: error_description is %x20-21 / %x23-5B / %x5D-7E; at most 200 chars. */
  static String quotable(String s) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), 200));
    for (int i = 0; i < s.length() && b.length() < 200; i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c > 0x7E || c == '"' || c == '\\' ? ' ' : c);
    }
    return b.toString();
  }

  /** Whether two principals are the same party (what a session or stream is bound to). */
  static boolean sameParty(@Nullable Principal owner, @Nullable Principal caller) {
    return owner == null ? caller == null : caller != null && owner.sameParty(caller);
  }
}
