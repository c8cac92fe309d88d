package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
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
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One message sent the 2026-07-28 way (MCP 2026-07-28 basic/transports/streamable-http): its own
 * {@code POST} with the request metadata headers and no session id, answered by nothing ({@code
 * 202}), one JSON response, or an event stream read once (comments ignored, never resumed).
 *
 * <p>Design note. Cancelling a request is closing its stream ({@link #cancel()}): the server
 * treats the disconnect as cancellation (§Cancellation), so nothing is posted, and nothing more
 * read for the request reaches the receiver. A stream that ends before the response fails the
 * request locally: 2026-07-28 streams cannot be resumed, the caller re-issues it with a new id.
 * An HTTP error whose body is a JSON-RPC error (with this request's id or none) is delivered as
 * that error, untouched, so the caller can tell a modern server's -32022/-32020/-32021 from an
 * older server's answer; any other refusal becomes a local -32603 whose {@code data.httpStatus}
 * names the status.
 */
final class ModernExchange {
  private final StreamableHttpClientTransport transport;
  private final URI uri;
  private final JsonRpcMessage message;
  private final @Nullable RequestId id;
  private final String method;
  private final String version;

  /** How many times this message was already sent again after authorizing. */
  private final int attempt;

  /** Set when a refusal was handed to {@link AuthRetry}: the retry owns the request id now. */
  private volatile boolean handedOver;

  private volatile boolean cancelled;
  private volatile @Nullable CompletableFuture<HttpResponse<InputStream>> pending;
  private volatile @Nullable InputStream body;

  /** Set when {@link #send} gave up (interrupted, unreachable): an answer that still comes is dropped. */
  private volatile boolean abandoned;

  /** Set once the awaited answer stopped counting as the transport's work ({@link #settle}). */
  private volatile boolean settled;

  private static final VarHandle SETTLED;

  static {
    try {
      SETTLED =
          MethodHandles.lookup().findVarHandle(ModernExchange.class, "settled", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  ModernExchange(StreamableHttpClientTransport transport, JsonRpcMessage message, String version) {
    this(transport, message, version, 0);
  }

  private ModernExchange(
      StreamableHttpClientTransport transport,
      JsonRpcMessage message,
      String version,
      int attempt) {
    this.attempt = attempt;
    this.transport = transport;
    this.uri = transport.uri();
    this.message = message;
    this.version = version;
    switch (message) {
      case JsonRpcMessage.Request r -> {
        this.id = r.id();
        this.method = r.method();
      }
      case JsonRpcMessage.Notification n -> {
        this.id = null;
        this.method = n.method();
      }
      default -> {
        this.id = null;
        this.method = "";
      }
    }
  }

  /**
   * Posts the message and returns once its body was handed to the connection. An answer read
   * whole (one JSON frame, or nothing) is handled where its last byte arrived; any other (an event
   * stream, an HTTP error, a failure) on a worker.
   *
   * @throws TransportException when the server cannot be reached
   */
  void send() {
    Http.SignallingPublisher publisher = new Http.SignallingPublisher(MessageCodec.encode(message));
    HttpRequest.Builder b =
        transport.request(uri).header("Accept", Http.ACCEPT_BOTH).header("Content-Type", Http.JSON);
    for (Map.Entry<String, String> h :
        McpHeaders.forMessage(message, version, transport.toolHeaders()).entrySet()) {
      b.header(h.getKey(), h.getValue());
    }
    transport.delivery().expect(id);
    if (id != null) {
      transport.openExchange(id, this);
    }
    transport.answerAwaited(); // before the answer can arrive: it may be handled at once
    HttpRequest request = b.POST(publisher).build();
    CompletableFuture<HttpResponse<InputStream>> response =
        transport
            .client()
            .sendAsync(
                request, WholeBody.handler(transport.maxEventBytes(), request, this::answered));
    pending = response;
    try {
      CompletableFuture.anyOf(publisher.sent(), response).get();
    } catch (InterruptedException e) {
      abandoned = true;
      response.cancel(true);
      done();
      settle();
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while sending to " + uri, e);
    } catch (ExecutionException e) {
      abandoned = true;
      done();
      settle();
      throw Http.unreachable(uri, e.getCause());
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
      if (abandoned) {
        return;
      }
      if (transport.isClosed()) {
        done();
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

  /** The answer is handled, dropped or handed to a worker: once, whichever path gets there first. */
  private void settle() {
    if (SETTLED.compareAndSet(this, false, true)) {
      transport.answerHandled();
    }
  }

  /**
   * Cancels the request by closing its stream (or abandoning the exchange when no answer came
   * yet); nothing more is delivered for it.
   */
  void cancel() {
    cancelled = true;
    CompletableFuture<HttpResponse<InputStream>> p = pending;
    if (p != null) {
      p.cancel(true);
    }
    InputStream in = body;
    if (in != null) {
      Http.discard(in);
    }
    done();
  }

  private void done() {
    if (!handedOver) {
      transport.delivery().forget(id);
    }
    if (id != null) {
      transport.closeExchange(id, this);
    }
  }

  private void onResponse(CompletableFuture<HttpResponse<InputStream>> response) {
    HttpResponse<InputStream> r;
    try {
      r = response.get();
    } catch (InterruptedException e) {
      response.cancel(true);
      return; // closing
    } catch (ExecutionException | java.util.concurrent.CancellationException e) {
      if (Http.unwrap(e) instanceof WholeBody.TooLarge tooLarge) {
        if (!cancelled && !transport.isClosed()) {
          fail("reading the response from " + uri + " failed: " + tooLarge.getMessage(), null);
        }
        done();
        return;
      }
      if (!cancelled && !transport.isClosed()) {
        fail(Http.unreachable(uri, e.getCause()).getMessage(), null);
      }
      done();
      return;
    }
    handle(r);
  }

  private void handle(HttpResponse<InputStream> r) {
    InputStream in = transport.track(r.body());
    body = in;
    try {
      if (cancelled) {
        Http.discard(in);
        return;
      }
      int status = r.statusCode();
      if (!Http.isSuccess(status)) {
        if (AuthRetry.onRefusal(transport, r, id, attempt, this::resend)) {
          handedOver = true;
          Http.discard(in);
          return;
        }
        onHttpError(status, in);
        return;
      }
      if (Http.isMediaType(r.headers(), Http.EVENT_STREAM)) {
        readStream(in);
        if (id != null && transport.isAwaiting(id) && !cancelled) {
          fail(
              "the response stream for request "
                  + id
                  + " ended before its response; 2026-07-28 streams cannot be resumed, so the"
                  + " request must be sent again",
              null);
        }
        return;
      }
      byte[] bytes = Http.readBounded(in, transport.maxEventBytes());
      if (bytes.length > 0 && status != 202) {
        if (Http.isMediaType(r.headers(), Http.JSON)) {
          deliver(MessageCodec.decode(bytes));
        } else {
          fail(
              "unexpected Content-Type "
                  + r.headers().firstValue("Content-Type").orElse("(none)")
                  + " from "
                  + uri,
              null);
        }
      }
      if (id != null && !cancelled) {
        fail(uri + " answered request " + id + " with HTTP " + status + " but no response", status);
      }
    } catch (IOException | TransportException e) {
      if (!transport.isClosed() && !cancelled) {
        fail("reading the response from " + uri + " failed: " + Http.reason(e), null);
      }
    } finally {
      transport.untrack(in);
      done();
    }
  }

  /** Sends the message again after authorizing (on a worker). */
  private void resend() {
    try {
      new ModernExchange(transport, message, version, attempt + 1).send();
    } catch (TransportException e) {
      if (id != null) {
        transport.delivery().expect(id); // send() forgot it; answer it locally
      }
      fail(e.getMessage(), null);
    }
  }

  private void readStream(InputStream in) throws IOException {
    SseParser parser =
        new SseParser(
            (type, data, length, lastId) -> {
              if ("message".equals(type) && !cancelled) {
                deliverEvent(data, length);
              }
            },
            transport.maxEventBytes());
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while (!cancelled && (n = in.read(buf)) != -1) {
        parser.feed(buf, 0, n);
      }
      parser.finish();
    } catch (IOException e) {
      if (!cancelled && !transport.isClosed()) {
        StreamableHttpClientTransport.LOG.log(
            System.Logger.Level.DEBUG, "event stream dropped: {0}", Http.reason(e));
      }
    }
  }

  private void deliverEvent(byte[] data, int length) {
    for (int i = 0; i < length; i++) {
      byte c = data[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        deliver(MessageCodec.decode(data, 0, length));
        return;
      }
    }
  }

  /** Hands a frame on, learning the tools of a {@code tools/list} result on the way. */
  private void deliver(DecodedMessage frame) {
    if (cancelled) {
      return;
    }
    if (McpMethods.TOOLS_LIST.equals(method)
        && frame instanceof DecodedMessage.Valid v
        && v.message() instanceof JsonRpcMessage.Result result
        && result.id().equals(id)) {
      transport.learnListedTools(result.result());
    }
    transport.delivery().deliver(frame);
  }

  private void onHttpError(int status, InputStream in) throws IOException {
    byte[] bytes = Http.errorBody(in);
    if (id == null) {
      StreamableHttpClientTransport.LOG.log(
          System.Logger.Level.WARNING, "{0} refused {1} with HTTP {2}", uri, method, status);
      return;
    }
    if (transport.delivery().deliverRefusal(id, bytes)) {
      return;
    }
    String excerpt =
        new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8).strip();
    fail(
        "HTTP "
            + status
            + " from "
            + uri
            + " for "
            + method
            + (excerpt.isEmpty() ? "" : ": " + excerpt),
        status);
  }

  private void fail(String reason, @Nullable Integer httpStatus) {
    if (id == null) {
      StreamableHttpClientTransport.LOG.log(System.Logger.Level.WARNING, "{0}", reason);
      return;
    }
    ObjectNode data = null;
    if (httpStatus != null) {
      data = McpJson.object().put(StreamableHttpClientTransport.HTTP_STATUS, (int) httpStatus);
    }
    transport.delivery().failRequest(id, reason, data);
  }
}
