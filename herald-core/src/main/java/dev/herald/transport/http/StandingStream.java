package dev.herald.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;

/**
 * The standing {@code GET} stream, opened once after {@code notifications/initialized} was
 * accepted (MCP 2025-11-25 basic/transports §Listening for Messages from the Server): a {@code
 * 405} means the server offers none; once open it is resumed like any stream until the transport
 * closes.
 *
 * <p>Design note. Whatever the first answer (headers, a refusal, a failure), the connection's
 * standing stream is settled at once, so senders that waited for it go on. A {@code 401} (or a
 * step-up {@code 403}) is answered as a {@code POST}'s is ({@link AuthRetry#onGetRefusal}) and the
 * {@code GET} sent again.
 */
final class StandingStream {
  private final StreamableHttpClientTransport transport;

  StandingStream(StreamableHttpClientTransport transport) {
    this.transport = transport;
  }

  /** Opens the stream and reads it, resuming, until the transport closes. */
  void open() {
    HttpResponse<InputStream> response;
    int authorized = 0;
    while (true) {
      try {
        response = transport.get("");
      } catch (IOException e) {
        transport.machine().standingSettled();
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.WARNING, "could not open the standing stream: {0}", Http.reason(e));
        return;
      } catch (InterruptedException e) {
        transport.machine().standingSettled();
        return; // closing
      }
      // settled on the first answer: senders do not wait for a login
      transport.machine().standingSettled();
      AuthRetry.GetVerdict verdict = AuthRetry.onGetRefusal(transport, response, authorized);
      if (verdict == AuthRetry.GetVerdict.NOT_A_CHALLENGE) {
        break;
      }
      Http.discard(response.body());
      if (verdict == AuthRetry.GetVerdict.GAVE_UP) {
        return;
      }
      authorized++;
    }
    InputStream in = transport.track(response.body());
    int status = response.statusCode();
    if (status == 404 && transport.hasSession()) {
      Http.discard(in);
      transport.untrack(in);
      transport.sessionExpired();
      return;
    }
    if (!Http.isSuccess(status) || !Http.isMediaType(response.headers(), Http.EVENT_STREAM)) {
      Http.discard(in);
      transport.untrack(in);
      StreamableHttpClientTransport.LOG.log(
          status == 405 ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
          "no standing stream: GET answered HTTP {0}",
          status);
      return;
    }
    new ResumableStream(transport, null).readThenResume(in);
  }
}
