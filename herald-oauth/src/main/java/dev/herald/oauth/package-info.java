/**
 * Access token verifiers: JWT against the authorization server's JWKS, and RFC 7662 introspection.
 * Every public type is thread-safe; a verifier is built once and shared by every request. A
 * verifier's waits on the network are bounded by its builder's timeouts: a slow or hung
 * authorization server is a refusal after the timeout, never a hung request. Nothing here logs or
 * stores a token (the introspection cache keys on a SHA-256 digest of it). Null is allowed only
 * where a parameter or return type says {@code @Nullable}.
 */
@NullMarked
package dev.herald.oauth;

import org.jspecify.annotations.NullMarked;
