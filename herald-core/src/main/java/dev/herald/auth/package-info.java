/**
 * Who is calling: the principal an access token stands for, and the verifier that turns a bearer
 * token into one. An HTTP server is an OAuth 2.1 resource server (MCP specification 2025-11-25
 * {@code basic/authorization}); the verifier is the one place a token is checked, and the
 * principal it yields is what sessions, streams, tasks and {@code requestState} are bound to.
 * {@link dev.herald.auth.ProtectedResource} describes a server as a protected resource (its
 * canonical URI, authorization servers, scopes and verifier) for an HTTP endpoint's {@code
 * authorization(...)} setting, and renders its RFC 9728 metadata.
 */
@NullMarked
package dev.herald.auth;

import org.jspecify.annotations.NullMarked;
