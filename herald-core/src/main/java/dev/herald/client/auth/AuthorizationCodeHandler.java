package dev.herald.client.auth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The host's part of the authorization code flow (OAuth 2.1 §4.1.1): send the user to the
 * authorization URL, and hand back the URL the authorization server redirected the user agent to
 * (the redirect URI with {@code code}, {@code state} and maybe {@code iss}, or with {@code
 * error}). A desktop host opens a browser and listens on a loopback redirect URI; the {@code
 * herald} command line does that.
 *
 * {@snippet :
 * AuthorizationCodeHandler browser = (authorizationUrl, redirectUri) -> {
 *   Desktop.getDesktop().browse(authorizationUrl);
 *   return loopbackListener.awaitRedirect(); // the full URL the browser was sent to
 * };
 * }
 *
 * <p>Called on a transport worker thread, one flow at a time per {@link OAuthClient}; it may block
 * for as long as the user takes. Whatever it throws fails the flow with an {@link
 * AuthorizationException}.
 */
@FunctionalInterface
public interface AuthorizationCodeHandler {
  /**
   * Takes the user through authorization.
   *
   * @param authorizationUrl the authorization endpoint with every request parameter
   * @param redirectUri the redirect URI the request names
   * @return the URL the authorization server redirected back to, query included
   */
  URI authorize(URI authorizationUrl, URI redirectUri) throws IOException, InterruptedException;

  /**
   * A handler for authorization servers that need no user (test servers, and those that approve
   * a known client at once): it requests the authorization URL and follows its redirects itself,
   * up to 10 and each within {@code timeout}, until one points at the redirect URI.
   */
  static AuthorizationCodeHandler followRedirects(Duration timeout) {
    return (authorizationUrl, redirectUri) -> {
      try (HttpClient client =
          HttpClient.newBuilder()
              .followRedirects(HttpClient.Redirect.NEVER)
              .connectTimeout(timeout)
              .build()) {
        URI next = authorizationUrl;
        for (int hop = 0; hop < 10; hop++) {
          if (!OAuthHttp.secure(next)) {
            throw new IOException("not following a redirect to " + next + ": not https");
          }
          HttpResponse<Void> r =
              client.send(
                  HttpRequest.newBuilder(next).timeout(timeout).GET().build(),
                  HttpResponse.BodyHandlers.discarding());
          String location = r.headers().firstValue("Location").orElse(null);
          if (r.statusCode() / 100 != 3 || location == null) {
            throw new IOException(
                next + " answered HTTP " + r.statusCode() + " instead of redirecting");
          }
          next = next.resolve(location);
          if (OAuthHttp.isRedirectTarget(next, redirectUri)) {
            return next;
          }
        }
        throw new IOException("more than 10 redirects from " + authorizationUrl);
      }
    };
  }
}
