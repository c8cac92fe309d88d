package dev.herald.jetty.client;

import dev.herald.transport.TransportException;
import dev.herald.transport.http.ReconnectPolicy;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP exchange of the transport, read as its bytes arrive on Jetty's threads: the answer to a
 * {@code POST} (nothing, one JSON frame, an event stream or an HTTP error), or one connection of a
 * {@code GET} event stream (the standing stream, or the resumption of a request's stream).
 *
 * <p>Design note (MCP 2025-11-25 basic/transports §Resumability and Redelivery, SEP-1699). Event
 * ids are per-stream cursors, so each logical stream ({@link Stream}) keeps its own last event id
 * and {@code retry:} value across its connections, and resumes only itself. A request's stream is
 * resumed until its response has passed through (on any stream); the standing stream until the
 * transport closes. A reconnection that opens an event stream resets the failure count; after the
 * policy's attempts in a row the stream is given up (its request fails).
 */
final class Exchange implements Response.Listener {
  private static final Duration RETRY_MARGIN = Duration.ofMillis(10);
  private static final int ERROR_BODY_LIMIT = 64 * 1024;

  private enum Kind {
    POST,
    RESUME,
    STANDING
  }

  private enum Mode {
    JSON,
    EVENTS,
    ERROR,
    EXPIRED
  }

  /** One logical event stream across its connections; touched by one exchange at a time. */
  private static final class Stream {
    String lastEventId = "";
    long retryMillis = -1;
    int failures;
  }

  private final JettyStreamableHttpClientTransport transport;
  private final Request request;
  private final @Nullable RequestId id;
  private final boolean carriedSession;
  private final boolean initialized;
  private final Kind kind;
  private final Stream stream;
  private final @Nullable CompletableFuture<@Nullable Void> sent;

  private int status;
  private Mode mode = Mode.JSON;
  private boolean jsonType;
  private @Nullable String contentType;
  private byte[] body = new byte[0];
  private int length;
  private @Nullable EventStreamParser parser;
  private @Nullable TransportException tooLarge;

  Exchange(
      JettyStreamableHttpClientTransport transport,
      Request request,
      @Nullable RequestId id,
      boolean carriedSession,
      boolean initialized,
      CompletableFuture<@Nullable Void> sent) {
    this(transport, request, id, carriedSession, initialized, Kind.POST, new Stream(), sent);
  }

  private Exchange(
      JettyStreamableHttpClientTransport transport,
      Request request,
      @Nullable RequestId id,
      boolean carriedSession,
      boolean initialized,
      Kind kind,
      Stream stream,
      @Nullable CompletableFuture<@Nullable Void> sent) {
    this.transport = transport;
    this.request = request;
    this.id = id;
    this.carriedSession = carriedSession;
    this.initialized = initialized;
    this.kind = kind;
    this.stream = stream;
    this.sent = sent;
  }

  /** The standing {@code GET} stream, not yet opened. */
  static Exchange standing(JettyStreamableHttpClientTransport transport) {
    return get(transport, null, Kind.STANDING, new Stream());
  }

  private static Exchange get(
      JettyStreamableHttpClientTransport transport,
      @Nullable RequestId id,
      Kind kind,
      Stream stream) {
    Request r =
        transport
            .request(HttpMethod.GET, stream.lastEventId)
            .headers(h -> h.put("Accept", JettyStreamableHttpClientTransport.EVENT_STREAM));
    return new Exchange(transport, r, id, transport.hasSession(), false, kind, stream, null);
  }

  Request request() {
    return request;
  }

  /** Opens this {@code GET}. */
  void open() {
    transport.get(this);
  }

  @Override
  public void onHeaders(Response response) {
    status = response.getStatus();
    contentType = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
    String media = mediaType(contentType);
    boolean success = status >= 200 && status < 300;
    if (kind == Kind.POST && success && transport.isInitialize(id)) {
      transport.sessionIssued(
          response.getHeaders().get(JettyStreamableHttpClientTransport.SESSION_ID));
    }
    if (status == 404 && (kind == Kind.POST ? carriedSession : transport.hasSession())) {
      mode = Mode.EXPIRED;
    } else if (success && JettyStreamableHttpClientTransport.EVENT_STREAM.equals(media)) {
      mode = Mode.EVENTS;
      parser =
          new EventStreamParser(
              (type, data, len) -> {
                if ("message".equals(type)) {
                  transport.deliverEvent(data, len);
                }
              },
              transport.maxEventBytes(),
              stream.lastEventId);
      if (kind != Kind.POST) {
        stream.failures = 0; // a reconnection that opens a stream is a success
      }
    } else if (success) {
      mode = Mode.JSON;
      jsonType = JettyStreamableHttpClientTransport.JSON.equals(media);
    } else {
      mode = Mode.ERROR;
    }
  }

  @Override
  public void onContent(Response response, ByteBuffer content) {
    if (tooLarge != null) {
      return;
    }
    switch (mode) {
      case JSON -> append(response, content, transport.maxEventBytes(), true);
      case ERROR -> append(response, content, ERROR_BODY_LIMIT, false);
      case EVENTS -> {
        EventStreamParser p = parser;
        if (p == null) {
          return;
        }
        try {
          p.feed(content);
        } catch (TransportException e) {
          tooLarge = e;
          response.abort(e);
        } finally {
          stream.lastEventId = p.lastEventId();
          if (p.retryMillis() >= 0) {
            stream.retryMillis = p.retryMillis();
          }
        }
      }
      case EXPIRED -> {}
    }
  }

  private void append(Response response, ByteBuffer content, int limit, boolean failWhenLonger) {
    int n = content.remaining();
    if ((long) length + n > limit) {
      if (failWhenLonger) {
        tooLarge = new TransportException("response body larger than " + limit + " bytes");
        response.abort(tooLarge);
      } else {
        length = -1; // an error body too long to read: ignored
      }
      return;
    }
    if (length < 0) {
      return;
    }
    if (length + n > body.length) {
      body = Arrays.copyOf(body, Math.min(limit, Math.max(length + n, body.length * 2)));
    }
    content.get(body, length, n);
    length += n;
  }

  @Override
  public void onComplete(Result result) {
    transport.ended(request);
    CompletableFuture<@Nullable Void> s = sent;
    if (s != null) {
      if (result.getRequestFailure() != null) {
        s.completeExceptionally(result.getRequestFailure());
      } else {
        s.complete(null);
      }
    }
    if (transport.isClosed()) {
      return;
    }
    try {
      completed(result);
    } catch (RuntimeException e) {
      if (!transport.isClosed()) {
        JettyStreamableHttpClientTransport.LOG.log(
            System.Logger.Level.WARNING, "HTTP transport answer handling failed", e);
      }
    }
  }

  private void completed(Result result) {
    String uri = transport.endpoint().toString();
    TransportException large = tooLarge;
    if (large != null) {
      giveUp(
          mode == Mode.JSON
              ? "reading the response from " + uri + " failed: " + large.getMessage()
              : large.getMessage());
      return;
    }
    if (status == 0) {
      // no answer at all
      if (kind == Kind.POST) {
        if (result.getRequestFailure() == null) {
          failMessage(
              "cannot reach "
                  + uri
                  + ": "
                  + JettyStreamableHttpClientTransport.reason(result.getFailure()));
        }
        // a request that never left failed its send() already
      } else {
        stream.failures++;
        resumeLater();
      }
      return;
    }
    switch (mode) {
      case EXPIRED -> transport.sessionExpired();
      case ERROR -> {
        if (kind == Kind.POST) {
          if (id == null) {
            JettyStreamableHttpClientTransport.LOG.log(
                System.Logger.Level.WARNING, "{0} refused a message with HTTP {1}", uri, status);
          } else if (!transport.deliverRefusal(id, body, Math.max(length, 0))) {
            transport.failRequest(id, "HTTP " + status + " from " + uri);
          }
        } else if (status == 405) {
          if (kind == Kind.RESUME) {
            giveUp("the server does not allow GET, so the stream cannot be resumed");
          }
          // a standing stream the server does not offer: none, and no retry
        } else {
          stream.failures++;
          resumeLater();
        }
      }
      case JSON -> {
        if (kind != Kind.POST) {
          stream.failures++; // a reconnection answered with something other than a stream
          resumeLater();
          return;
        }
        if (initialized) {
          transport.initializedAccepted();
        }
        if (length > 0 && status != 202) {
          if (jsonType) {
            transport.deliver(MessageCodec.decode(body, 0, length));
          } else {
            failMessage(
                "unexpected Content-Type "
                    + (contentType == null ? "(none)" : contentType)
                    + " from "
                    + uri);
          }
        }
        if (id != null) {
          // a request answered with neither its response nor a stream would otherwise wait
          transport.failRequest(
              id, uri + " answered request " + id + " with HTTP " + status + " but no response");
        }
      }
      case EVENTS -> {
        EventStreamParser p = parser;
        if (p != null) {
          stream.lastEventId = p.lastEventId();
        }
        if (initialized) {
          transport.initializedAccepted();
        }
        if (kind == Kind.POST && id == null) {
          return; // a stream for a notification: never resumed
        }
        resumeLater();
      }
    }
  }

  /** Whether this logical stream is still wanted. */
  private boolean wanted() {
    if (transport.isClosed()) {
      return false;
    }
    return id == null ? kind == Kind.STANDING : transport.isAwaiting(id);
  }

  /** Opens the next connection of this stream after the policy's delay, if still wanted. */
  private void resumeLater() {
    if (!wanted()) {
      return;
    }
    if (id != null && stream.lastEventId.isEmpty()) {
      transport.failRequest(
          id,
          "the stream for request "
              + id
              + " ended before its response and carried no event id to resume from");
      return;
    }
    ReconnectPolicy policy = transport.reconnect();
    if (stream.failures >= policy.maxAttempts()) {
      giveUp("the stream ended and " + stream.failures + " reconnection attempts failed");
      return;
    }
    Duration wait = delay(policy, stream.retryMillis, stream.failures);
    if (stream.retryMillis >= 0) {
      wait = wait.plus(RETRY_MARGIN); // the client MUST wait retry ms, however clocks measure
    }
    Kind next = kind == Kind.STANDING ? Kind.STANDING : Kind.RESUME;
    transport.later(
        () -> {
          if (wanted()) {
            get(transport, id, next, stream).open();
          }
        },
        wait);
  }

  /**
   * The wait before a reconnection: the server's {@code retry:} (else the policy's initial delay),
   * doubled per failure in a row up to the policy's cap, never sooner than the server asked.
   */
  static Duration delay(ReconnectPolicy policy, long serverRetryMillis, int failures) {
    Duration base =
        serverRetryMillis >= 0 ? Duration.ofMillis(serverRetryMillis) : policy.initialDelay();
    Duration cap = policy.maxDelay().compareTo(base) > 0 ? policy.maxDelay() : base;
    Duration d = failures > 0 && base.isZero() ? Duration.ofMillis(100) : base;
    for (int i = 0; i < failures && d.compareTo(cap) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(cap) > 0 ? cap : d;
  }

  private void giveUp(String why) {
    if (id != null) {
      transport.failRequest(id, "request " + id + " failed: " + why);
    } else if (kind == Kind.STANDING) {
      JettyStreamableHttpClientTransport.LOG.log(
          System.Logger.Level.WARNING, "standing stream given up: {0}", why);
    }
  }

  private void failMessage(String reason) {
    if (id != null) {
      transport.failRequest(id, reason);
    } else {
      JettyStreamableHttpClientTransport.LOG.log(System.Logger.Level.WARNING, "{0}", reason);
    }
  }

  private static @Nullable String mediaType(@Nullable String contentType) {
    if (contentType == null) {
      return null;
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .trim()
        .toLowerCase(Locale.ROOT);
  }
}
