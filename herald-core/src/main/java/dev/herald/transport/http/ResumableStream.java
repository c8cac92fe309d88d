package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One logical SSE stream of a Streamable HTTP session, across its reconnections: the answer
 * stream of one request, or the standing {@code GET} stream.
 *
 * <p>Design note (MCP 2025-11-25 basic/transports §Resumability and Redelivery, SEP-1699). Event
 * ids are per-stream cursors, so each logical stream keeps its own last event id and {@code
 * retry:} value, and resumes only itself: a {@code GET} with {@code Last-Event-ID}, on which the
 * server replays what followed that event on this stream and nothing from any other. A request's
 * stream is resumed until its response has passed through (on any stream); the standing stream
 * until the transport closes. A request stream that ends without ever having had an event id
 * cannot be resumed (a bare {@code GET} would open the standing stream instead), so its request
 * fails. A resumption refused with {@code 401} (the token expired while the session lived) is
 * authorized as a {@code POST} would be ({@link AuthRetry#onGetRefusal}) and sent again at once.
 * Runs on one virtual thread from first byte to last reconnection; not thread-safe.
 */
final class ResumableStream {
  private enum Outcome {
    ENDED,
    TOO_LARGE
  }

  private final StreamableHttpClientTransport transport;

  /** The request this stream answers, or {@code null} for the standing stream. */
  private final @Nullable RequestId requestId;

  private String lastEventId = "";
  private long retryMillis = -1;
  private static final Duration RETRY_MARGIN = Duration.ofMillis(10);

  ResumableStream(StreamableHttpClientTransport transport, @Nullable RequestId requestId) {
    this.transport = transport;
    this.requestId = requestId;
  }

  /** Reads a stream that is never resumed (one that answered a notification). */
  void readOnce(InputStream in) {
    read(in);
  }

  /** Reads {@code first}, then resumes the stream for as long as it is wanted. */
  void readThenResume(InputStream first) {
    if (read(first) == Outcome.TOO_LARGE) {
      return;
    }
    ReconnectPolicy policy = transport.reconnect();
    int failures = 0;
    int authorized = 0;
    boolean again = false; // authorized anew: resume at once
    while (wanted()) {
      if (requestId != null && lastEventId.isEmpty()) {
        transport.failRequest(
            requestId,
            "the stream for request "
                + requestId
                + " ended before its response and carried no event id to resume from");
        return;
      }
      if (failures >= policy.maxAttempts()) {
        giveUp("the stream ended and " + failures + " reconnection attempts failed");
        return;
      }
      if (!again) {
        Duration wait = policy.delay(retryMillis, failures);
        if (retryMillis >= 0) {
          // The client MUST wait retry ms; a small margin keeps that true however the two sides
          // measure it (the server's clock starts when it closes, ours when we read the end).
          wait = wait.plus(RETRY_MARGIN);
        }
        if (!sleep(wait) || !wanted()) {
          return;
        }
      }
      again = false;
      HttpResponse<InputStream> response;
      try {
        response = transport.get(lastEventId);
      } catch (IOException e) {
        failures++;
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.DEBUG, "resuming failed: {0}", Http.reason(e));
        continue;
      } catch (InterruptedException e) {
        return; // closing
      }
      AuthRetry.GetVerdict verdict = AuthRetry.onGetRefusal(transport, response, authorized);
      if (verdict != AuthRetry.GetVerdict.NOT_A_CHALLENGE) {
        Http.discard(response.body());
        if (verdict == AuthRetry.GetVerdict.GAVE_UP) {
          if (requestId != null && !transport.isClosed()) {
            giveUp("its resumption was refused (HTTP " + response.statusCode() + ")");
          }
          return;
        }
        authorized++;
        again = true;
        continue;
      }
      int status = response.statusCode();
      InputStream in = transport.track(response.body());
      if (status == 404 && transport.hasSession()) {
        Http.discard(in);
        transport.untrack(in);
        transport.sessionExpired();
        return;
      }
      if (status == 405) {
        Http.discard(in);
        transport.untrack(in);
        giveUp("the server does not allow GET, so the stream cannot be resumed");
        return;
      }
      if (!Http.isSuccess(status) || !Http.isMediaType(response.headers(), Http.EVENT_STREAM)) {
        Http.discard(in);
        transport.untrack(in);
        failures++;
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.DEBUG, "resuming answered HTTP {0}", status);
        continue;
      }
      failures = 0;
      authorized = 0; // the bound is per refusal, not per stream: tokens keep expiring
      if (read(in) == Outcome.TOO_LARGE) {
        return;
      }
    }
  }

  private boolean wanted() {
    if (transport.isClosed()) {
      return false;
    }
    return requestId == null || transport.isAwaiting(requestId);
  }

  private void giveUp(String why) {
    if (requestId != null) {
      transport.failRequest(requestId, "request " + requestId + " failed: " + why);
    } else if (!transport.isClosed()) {
      StreamableHttpClientTransport.LOG.log(
          System.Logger.Level.WARNING, "standing stream given up: {0}", why);
    }
  }

  private Outcome read(InputStream in) {
    SseParser parser =
        new SseParser(
            (type, data, length, id) -> {
              if ("message".equals(type)) {
                transport.deliverEvent(data, length);
              }
            },
            transport.maxEventBytes(),
            lastEventId);
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) != -1) {
        parser.feed(buf, 0, n);
        lastEventId = parser.lastEventId();
      }
      parser.finish();
    } catch (IOException e) {
      if (!transport.isClosed()) {
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.DEBUG, "event stream dropped: {0}", Http.reason(e));
      }
    } catch (TransportException e) {
      giveUp(e.getMessage()); // an oversized event: resuming would only meet it again
      return Outcome.TOO_LARGE;
    } finally {
      transport.untrack(in);
      lastEventId = parser.lastEventId();
      if (parser.retryMillis() >= 0) {
        retryMillis = parser.retryMillis();
      }
    }
    return Outcome.ENDED;
  }

  private static boolean sleep(Duration d) {
    try {
      Thread.sleep(d);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }
}
