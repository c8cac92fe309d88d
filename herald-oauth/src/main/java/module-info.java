/**
 * Herald's access token verifiers for a protected MCP server (MCP specification 2025-11-25 {@code
 * basic/authorization}, "Token Handling"): {@link dev.herald.oauth.JwtTokenVerifier} checks JWT
 * access tokens against the authorization server's published keys (JWKS), {@link
 * dev.herald.oauth.IntrospectionTokenVerifier} asks the authorization server (RFC 7662). Both
 * implement herald-core's {@link dev.herald.auth.TokenVerifier}. JOSE is Nimbus JOSE+JWT; HTTP is
 * the JDK's {@code java.net.http}.
 */
module dev.herald.oauth {
  requires transitive dev.herald.core;
  requires transitive java.net.http; // an HttpClient may be given to the builders
  requires com.nimbusds.jose.jwt;
  requires static org.jspecify;

  exports dev.herald.oauth;
}
