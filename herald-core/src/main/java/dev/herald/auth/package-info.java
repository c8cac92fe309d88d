/**
 * Who is calling: the principal an access token stands for, and the verifier that turns a bearer
 * token into one. An HTTP server is an OAuth 2.1 resource server (MCP specification 2025-11-25
 * {@code basic/authorization}); the verifier is the one place a token is checked, and the
 * principal it yields is what sessions, streams, tasks and {@code requestState} are bound to.
 */
@NullMarked
package dev.herald.auth;

import org.jspecify.annotations.NullMarked;
