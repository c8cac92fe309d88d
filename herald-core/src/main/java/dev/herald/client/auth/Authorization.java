package dev.herald.client.auth;

import java.net.URI;
import java.util.Optional;

/**
 * What an HTTP client transport asks when it talks to a protected MCP server (MCP 2025-11-25
 * basic/authorization): the {@code Authorization} header to send, and whether to retry a request
 * the server refused with {@code 401} or with {@code 403 insufficient_scope}.
 *
 * <p>{@link OAuthClient} is the implementation that runs the whole OAuth 2.1 flow; a host with a
 * token of its own may implement this directly (returning {@code false} from {@link #retryAfter}
 * when it has nothing better to offer).
 *
 * {@snippet :
 * Authorization fixed = new Authorization() {
 *   public Optional<String> authorizationHeader(URI resource) {
 *     return Optional.of("Bearer " + token);
 *   }
 *   public boolean retryAfter(Challenge challenge) {
 *     return false; // the server's challenge reaches the caller as an AuthorizationException
 *   }
 * };
 * }
 *
 * <p>Threading: both methods may be called from any thread, concurrently. {@link
 * #authorizationHeader} is called before every request and must not block on the network; {@link
 * #retryAfter} runs on a transport worker thread and may block (it is where a flow runs).
 */
public interface Authorization {
  /**
   * The value of the {@code Authorization} header for a request to {@code resource} (the MCP
   * endpoint), e.g. {@code "Bearer eyJ..."}, or empty to send none.
   */
  Optional<String> authorizationHeader(URI resource);

  /**
   * The server refused a request: {@code 401}, or {@code 403} with {@code
   * error="insufficient_scope"}. Obtains a new or better token if it can, blocking meanwhile.
   *
   * @return true to send the request again (with the then current {@link #authorizationHeader}),
   *     false to give up: the transport then reports the challenge to the caller
   * @throws AuthorizationException when the flow failed; the transport reports it to the caller
   */
  boolean retryAfter(Challenge challenge);
}
