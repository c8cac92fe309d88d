/**
 * The client side of MCP authorization (MCP 2025-11-25 basic/authorization, unchanged in substance
 * for 2026-07-28): what a Streamable HTTP client does when a protected server answers {@code 401}
 * or {@code 403}. The entry type is {@link dev.herald.client.auth.OAuthClient}, set on the
 * transport with {@link
 * dev.herald.transport.http.StreamableHttpClientTransport.Builder#authorization(Authorization)};
 * tokens are kept in a {@link dev.herald.client.auth.TokenStore}.
 *
 * <p>Threading: an {@code OAuthClient} runs one authorization flow at a time (its lock is held
 * while a flow blocks on the network or on the host's {@link
 * dev.herald.client.auth.AuthorizationCodeHandler}); reading the current token never blocks on a
 * flow. Every HTTP exchange is bounded in time and size. Nulls: non-null unless marked {@code
 * @Nullable}.
 */
@NullMarked
package dev.herald.client.auth;

import org.jspecify.annotations.NullMarked;
