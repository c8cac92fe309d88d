package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.transport.http.ConnectionState.Probing;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One message sent as its own {@code POST}, and the reading of its answer (MCP 2025-11-25
 * basic/transports §Sending Messages to the Server): nothing ({@code 202}), one JSON frame, or an
 * event stream that is resumed until the request's response passed through.
 *
 * <p>Design note. The answer to the probe (the first {@code initialize}, while the connection is
 * {@link Probing}) also routes the connection: 400, 404 or 405 fall back to HTTP+SSE; anything
 * else makes it Streamable HTTP with the session id the server issued. Whether an answer is the
 * probe's is read from the connection state, never carried along.
 */
final class PostExchange {
  private final StreamableHttpClientTransport transport;
  private final URI uri;
  private final JsonRpcMessage message;
  private final @Nullable RequestId id;
  private final boolean carriedSession;

  /** Set when {@link #send} gave up (interrupted, unreachable): an answer that still comes is dropped. */
  private volatile boolean abandoned;

  /** Set once the awaited answer stopped counting as the transport's work ({@link #settle}). */
  private volatile boolean settled;

  private static final VarHandle SETTLED;

  static {
    try {
      SETTLED = MethodHandles.lookup().findVarHandle(PostExchange.class, "settled", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The answer is handled, dropped or handed to a worker: once, whichever path gets there first. */
  private void settle() {
    if (SETTLED.compareAndSet(this, false, true)) {
      transport.answerHandled();
    }
  }

  /** How many times this message was already sent again after authorizing. */
  private final int attempt;

  PostExchange(StreamableHttpClientTransport transport, JsonRpcMessage message) {
    this(transport, message, 0);
  }

  private PostExchange(
      StreamableHttpClientTransport transport, JsonRpcMessage message, int attempt) {
    this.attempt = attempt;
    this.transport = transport;
    this.uri = transport.uri();
    this.message = message;
    this.id = message instanceof JsonRpcMessage.Request r ? r.id() : null;
    this.carriedSession = transport.hasSession();
  }

  /**
   * Posts the message and returns once its body was handed to the connection. An answer read
   * whole (one JSON frame, or nothing) is handled where its last byte arrived; any other (an event
   * stream, an HTTP error, a failure) on a worker.
   *
   * @throws TransportException when the server cannot be reached
   */
  void send() {
    Http.SignallingPublisher body = new Http.SignallingPublisher(MessageCodec.encode(message));
    HttpRequest request = transport.post(uri, body);
    transport.delivery().expect(id);
    transport.answerAwaited(); // before the answer can arrive: it may be handled at once
    CompletableFuture<HttpResponse<InputStream>> response =
        transport
            .client()
            .sendAsync(
                request, WholeBody.handler(transport.maxEventBytes(), request, this::answered));
    try {
      CompletableFuture.anyOf(body.sent(), response).get();
    } catch (InterruptedException e) {
      abandoned = true;
      response.cancel(true);
      transport.delivery().forget(id);
      settle();
      Thread.currentThread().interrupt();
      throw unsent(new TransportException("interrupted while sending to " + uri, e));
    } catch (ExecutionException e) {
      abandoned = true;
      transport.delivery().forget(id);
      settle();
      throw unsent(Http.unreachable(uri, e.getCause()));
    }
    response.whenComplete((r, e) -> {
      if (r != null && r.body() instanceof WholeBody) {
        return; // read whole: handled (and counted) where its last byte arrived, see answered
      }
      try {
        transport.spawn("post", () -> onResponse(response));
      } finally {
        settle();
      }
    });
  }

  /**
   * Handles an answer that was read whole, where its last byte arrived (the JDK client's selector
   * thread, or the sender's), unless the transport closed or the sender gave up meanwhile.
   */
  private void answered(HttpResponse<InputStream> response) {
    try {
      if (abandoned || transport.isClosed()) {
        return;
      }
      handle(response);
    } catch (RuntimeException e) {
      if (!transport.isClosed()) {
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.WARNING, "HTTP transport answer handling failed", e);
      }
    } finally {
      settle();
    }
  }

  /** Whether this is the probe, still unanswered. */
  private boolean isProbe() {
    return id != null
        && transport.machine().state() instanceof Probing p
        && p.initializeId().equals(id);
  }

  private TransportException unsent(TransportException e) {
    if (isProbe()) {
      transport.machine().probeUnreachable(e);
    }
    return e;
  }

  private void onResponse(CompletableFuture<HttpResponse<InputStream>> pending) {
    HttpResponse<InputStream> response;
    try {
      response = pending.get();
    } catch (InterruptedException e) {
      pending.cancel(true);
      return; // closing
    } catch (ExecutionException e) {
      if (Http.unwrap(e) instanceof WholeBody.TooLarge tooLarge) {
        failMessage("reading the response from " + uri + " failed: " + tooLarge.getMessage());
        return;
      }
      TransportException failure = Http.unreachable(uri, e.getCause());
      if (isProbe()) {
        transport.fail(failure);
      } else {
        failMessage(failure.getMessage());
      }
      return;
    }
    handle(response);
  }

  private void handle(HttpResponse<InputStream> response) {
    InputStream in = transport.track(response.body());
    try {
      int status = response.statusCode();
      if (AuthRetry.onRefusal(transport, response, id, attempt, this::resend)) {
        Http.discard(in);
        return;
      }
      boolean probe = isProbe();
      if (probe && (status == 400 || status == 404 || status == 405)) {
        Http.discard(in);
        LegacySseConnection.fallBack(transport, message, status);
        return;
      }
      if (status == 404 && carriedSession) {
        Http.discard(in);
        transport.sessionExpired();
        return;
      }
      if (probe) {
        String sid = Http.isSuccess(status) ? issuedSession(response) : null;
        if (transport.isClosed() || !transport.machine().probeAnswered(sid)) {
          Http.discard(in);
          return;
        }
      }
      if (!Http.isSuccess(status)) {
        onHttpError(status, in);
        return;
      }
      if (Http.isMediaType(response.headers(), Http.EVENT_STREAM)) {
        afterAccepted();
        if (id != null) {
          new ResumableStream(transport, id).readThenResume(in);
        } else {
          new ResumableStream(transport, null)
              .readOnce(in); // a stream for a notification: never resumed
        }
        return;
      }
      byte[] bytes = Http.readBounded(in, transport.maxEventBytes());
      afterAccepted();
      if (bytes.length > 0 && status != 202) {
        if (Http.isMediaType(response.headers(), Http.JSON)) {
          transport.delivery().deliver(MessageCodec.decode(bytes));
        } else {
          failMessage(
              "unexpected Content-Type "
                  + response.headers().firstValue("Content-Type").orElse("(none)")
                  + " from "
                  + uri);
        }
      }
      if (id != null) {
        // A request answered with neither its response nor a stream would otherwise wait forever.
        transport.failRequest(
            id, uri + " answered request " + id + " with HTTP " + status + " but no response");
      }
    } catch (IOException | TransportException e) {
      if (!transport.isClosed()) {
        failMessage("reading the response from " + uri + " failed: " + Http.reason(e));
      }
    } finally {
      transport.untrack(in);
    }
  }

  /** Sends the message again after authorizing (on a worker). */
  private void resend() {
    try {
      new PostExchange(transport, message, attempt + 1).send();
    } catch (TransportException e) {
      if (isProbe()) {
        transport.fail(e);
      } else {
        transport.delivery().expect(id); // send() forgot it; answer it locally
        failMessage(e.getMessage());
      }
    }
  }

  /**
   * Reads {@code Mcp-Session-Id} from the answer to {@code initialize}; an invalid one ends the
   * transport.
   */
  private @Nullable String issuedSession(HttpResponse<?> response) {
    String sid = response.headers().firstValue(Http.SESSION_ID).orElse(null);
    if (sid == null) {
      return null;
    }
    for (int i = 0; i < sid.length(); i++) {
      char c = sid.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        transport.fail(
            new TransportException(
                "server at "
                    + uri
                    + " issued an invalid session id (MCP-Session-Id must be visible ASCII)"));
        return null;
      }
    }
    return sid;
  }

  /** After {@code notifications/initialized} was accepted, the standing stream may open. */
  private void afterAccepted() {
    if (message instanceof JsonRpcMessage.Notification n
        && McpMethods.INITIALIZED.equals(n.method())
        && transport.machine().initializedAccepted()) {
      transport.spawn("get", () -> new StandingStream(transport).open());
    }
  }

  private void onHttpError(int status, InputStream in) throws IOException {
    byte[] bytes = Http.errorBody(in);
    if (id == null) {
      StreamableHttpClientTransport.LOG.log(
          System.Logger.Level.WARNING, "{0} refused a message with HTTP {1}", uri, status);
      return;
    }
    // The server may explain itself with a JSON-RPC error (with our id, or with none).
    if (transport.delivery().deliverRefusal(id, bytes)) {
      return;
    }
    transport.failRequest(id, "HTTP " + status + " from " + uri);
  }

  private void failMessage(String reason) {
    if (id != null) {
      transport.failRequest(id, reason);
    } else {
      StreamableHttpClientTransport.LOG.log(System.Logger.Level.WARNING, "{0}", reason);
    }
  }
}
