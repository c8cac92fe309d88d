package dev.herald.transport.http;

import dev.herald.client.auth.Authorization;
import dev.herald.client.auth.AuthorizationException;
import dev.herald.client.auth.Challenge;
import dev.herald.transport.TransportException;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import java.net.http.HttpResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a {@code POST} exchange does with a {@code 401}, or a {@code 403} with {@code
 * error="insufficient_scope"} (MCP 2025-11-25 basic/authorization §Authorization Flow Steps and
 * §Scope Challenge Handling): it asks the transport's {@link Authorization} on a worker thread
 * (a flow blocks) and sends the same message again when told to, at most {@link #MAX_ATTEMPTS}
 * times per message.
 *
 * <p>Design note. When the refusal cannot be answered the challenge reaches the host, never
 * hidden: a {@code 401} ends the transport with an {@link AuthorizationException} (no request
 * can succeed without a token, so every pending call and the session's close see it); a {@code
 * 403} fails only its own request, with {@code data.httpStatus} and {@code data.wwwAuthenticate}.
 */
final class AuthRetry {
  /** Authorization attempts per message: one for the 401, two step-ups. */
  static final int MAX_ATTEMPTS = 3;

  /** The {@code data} field carrying the refusal's {@code WWW-Authenticate}. */
  static final String WWW_AUTHENTICATE = "wwwAuthenticate";

  private AuthRetry() {}

  /**
   * Takes over a refused answer if it is an authorization challenge.
   *
   * @param attempt how many times this message was already retried after authorizing
   * @param resend sends the message again (called on a worker)
   * @return true when the answer was taken over (the caller discards its body and stops)
   */
  static boolean onRefusal(
      StreamableHttpClientTransport transport,
      HttpResponse<?> response,
      @Nullable RequestId id,
      int attempt,
      Runnable resend) {
    Challenge challenge = challenge(transport, response);
    if (challenge == null) {
      return false; // not about authorization, or an ordinary refusal
    }
    Authorization auth = transport.authorization();
    if (auth == null) {
      giveUp(
          transport,
          id,
          new AuthorizationException(
              transport.uri() + " requires authorization (" + challenge.describe() + ")",
              challenge));
      return true;
    }
    if (attempt >= MAX_ATTEMPTS) {
      giveUp(
          transport,
          id,
          new AuthorizationException(
              transport.uri()
                  + " still refused the request after "
                  + attempt
                  + " authorizations ("
                  + challenge.describe()
                  + ")",
              challenge));
      return true;
    }
    transport.spawn(
        "auth",
        () -> {
          try {
            if (auth.retryAfter(challenge)) {
              if (!transport.isClosed()) {
                resend.run();
              }
            } else {
              giveUp(
                  transport,
                  id,
                  new AuthorizationException(
                      transport.uri() + " refused the request (" + challenge.describe() + ")",
                      challenge));
            }
          } catch (AuthorizationException e) {
            giveUp(
                transport,
                id,
                e.challenge().isPresent()
                    ? e
                    : new AuthorizationException(e.getMessage(), challenge, e.getCause()));
          } catch (TransportException | IllegalStateException | IllegalArgumentException e) {
            giveUp(
                transport,
                id,
                new AuthorizationException(
                    "authorization with " + transport.uri() + " failed: " + e.getMessage(),
                    challenge,
                    e));
          }
        });
    return true;
  }

  /** What a stream's {@code GET} does after a refusal. */
  enum GetVerdict {
    /** The answer was no authorization challenge: handle it as before. */
    NOT_A_CHALLENGE,
    /** Authorized anew: send the {@code GET} again (it picks up the new token). */
    RETRY,
    /** The challenge could not be answered; the transport was told (a {@code 401} ends it). */
    GAVE_UP
  }

  /**
   * The authorization challenge of a refused response: a 401, or a 403 whose challenge asks for
   * more scope; null for anything else (a 403 without it is an ordinary refusal).
   */
  private static @Nullable Challenge challenge(
      StreamableHttpClientTransport transport, HttpResponse<?> response) {
    int status = response.statusCode();
    if (status != 401 && status != 403) {
      return null;
    }
    String header = String.join(", ", response.headers().allValues("WWW-Authenticate"));
    Challenge challenge =
        Challenge.of(
            transport.uri(),
            status,
            header.isEmpty() ? null : header,
            response.request().headers().firstValue("Authorization").orElse(null));
    return status == 403 && !challenge.insufficientScope() ? null : challenge;
  }

  /**
   * A stream's {@code GET} (the standing stream, or the resumption of any stream) refused with
   * {@code 401}, or {@code 403} with {@code error="insufficient_scope"}: the same answer as for a
   * {@code POST} (a token refused while the session lives, because it expired, is refreshed or
   * obtained anew), but on the calling thread, which is the stream's own worker. A challenge that
   * cannot be answered ends the transport with an {@link AuthorizationException} for a {@code 401},
   * never a silent end of the stream; an unanswerable step-up ends only the stream.
   *
   * @param attempt how many times this stream already authorized and sent its {@code GET} again
   */
  static GetVerdict onGetRefusal(
      StreamableHttpClientTransport transport, HttpResponse<?> response, int attempt) {
    Challenge challenge = challenge(transport, response);
    if (challenge == null) {
      return GetVerdict.NOT_A_CHALLENGE;
    }
    Authorization auth = transport.authorization();
    AuthorizationException failure;
    if (auth == null) {
      failure =
          new AuthorizationException(
              transport.uri() + " requires authorization (" + challenge.describe() + ")",
              challenge);
    } else if (attempt >= MAX_ATTEMPTS) {
      failure =
          new AuthorizationException(
              transport.uri()
                  + " still refused the stream after "
                  + attempt
                  + " authorizations ("
                  + challenge.describe()
                  + ")",
              challenge);
    } else {
      try {
        if (auth.retryAfter(challenge)) {
          return transport.isClosed() ? GetVerdict.GAVE_UP : GetVerdict.RETRY;
        }
        failure =
            new AuthorizationException(
                transport.uri() + " refused the stream (" + challenge.describe() + ")", challenge);
      } catch (AuthorizationException e) {
        failure =
            e.challenge().isPresent()
                ? e
                : new AuthorizationException(e.getMessage(), challenge, e.getCause());
      } catch (TransportException | IllegalStateException | IllegalArgumentException e) {
        failure =
            new AuthorizationException(
                "authorization with " + transport.uri() + " failed: " + e.getMessage(),
                challenge,
                e);
      }
    }
    if (challenge.status() == 401) {
      transport.fail(failure);
    } else {
      StreamableHttpClientTransport.LOG.log(
          System.Logger.Level.WARNING, "stream given up: {0}", failure.getMessage());
    }
    return GetVerdict.GAVE_UP;
  }

  private static void giveUp(
      StreamableHttpClientTransport transport, @Nullable RequestId id, AuthorizationException e) {
    Challenge c = e.challenge().orElse(null);
    if (c != null && c.status() == 403) {
      if (id != null) {
        ObjectNode data = McpJson.object().put(StreamableHttpClientTransport.HTTP_STATUS, 403);
        if (c.header() != null) {
          data.put(WWW_AUTHENTICATE, c.header());
        }
        transport.delivery().failRequest(id, e.getMessage(), data);
      }
      return;
    }
    transport.fail(e);
  }
}
