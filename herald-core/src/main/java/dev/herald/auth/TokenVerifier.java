package dev.herald.auth;

/**
 * Turns a bearer access token into the {@link Principal} it was issued to, or refuses it. A
 * protected MCP server (MCP specification 2025-11-25 {@code basic/authorization}) calls it once
 * per HTTP request that carries {@code Authorization: Bearer <token>}; the token goes nowhere else
 * (it is never passed through to another service).
 *
 * <p>A verifier must check at least that the token is genuine (signature or introspection), is
 * not expired, was issued by the expected authorization server, and was issued for this server
 * (its audience is this server's canonical URI, RFC 8707). It must bound its own waits (a JWKS or
 * introspection endpoint that hangs is a refusal after a timeout, not a hung request).
 *
 * <p>Implementations must be thread-safe: requests verify concurrently.
 */
@FunctionalInterface
public interface TokenVerifier {

  /**
   * Verifies {@code token}.
   *
   * @param token the bearer token, without the {@code Bearer } prefix; never empty
   * @return the principal the token stands for
   * @throws InvalidTokenException when the token is not acceptable: the server answers {@code
   *     401} with {@code error="invalid_token"} and the exception's message as {@code
   *     error_description}
   */
  Principal verify(String token) throws InvalidTokenException;
}
