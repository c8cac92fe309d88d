package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The 2024-11-05 HTTP+SSE transport, reached when a server answers {@code initialize} with 400,
 * 404 or 405 (MCP 2025-11-25 basic/transports §Backwards Compatibility).
 *
 * <p>Design note. One {@code GET} event stream carries everything from the server; its first
 * {@code endpoint} event names the URI to {@code POST} each message to. That URI must be on the
 * same origin as the stream, so a server cannot send the client's headers (credentials) elsewhere.
 * The old transport has no resumption: when the stream ends the transport fails.
 */
final class LegacySseConnection {
  private final StreamableHttpClientTransport transport;
  private final URI streamUri;
  private final CompletableFuture<URI> endpoint = new CompletableFuture<>();

  LegacySseConnection(StreamableHttpClientTransport transport, URI streamUri) {
    this.transport = transport;
    this.streamUri = streamUri;
  }

  /**
   * Falls back after the server refused the probe with {@code initializeStatus}: opens the stream
   * on the transport's URI, routes the connection through it, and posts {@code initialize} again
   * there before any other message; when that fails the transport ends.
   */
  static void fallBack(
      StreamableHttpClientTransport transport, JsonRpcMessage initialize, int initializeStatus) {
    LegacySseConnection connection = new LegacySseConnection(transport, transport.uri());
    try {
      connection.open(initializeStatus, transport.timeout());
      if (!transport.machine().fallingBack(connection)) {
        return; // closed meanwhile
      }
      connection.post(initialize);
      transport.machine().fellBack();
    } catch (TransportException e) {
      transport.fail(e);
    }
  }

  /**
   * Opens the stream and waits for the {@code endpoint} event.
   *
   * @param initializeStatus the status that {@code initialize} got, for the error message
   * @throws TransportException when the server offers no HTTP+SSE stream either
   */
  void open(int initializeStatus, Duration timeout) {
    HttpResponse<InputStream> response;
    try {
      response =
          transport
              .client()
              .send(
                  transport.request(streamUri).header("Accept", Http.EVENT_STREAM).GET().build(),
                  HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw Http.unreachable(streamUri, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while connecting to " + streamUri, e);
    }
    InputStream in = transport.track(response.body());
    int status = response.statusCode();
    if (!Http.isSuccess(status) || !Http.isMediaType(response.headers(), Http.EVENT_STREAM)) {
      Http.discard(in);
      transport.untrack(in);
      throw new TransportException(
          "server at "
              + streamUri
              + " answered initialize with HTTP "
              + initializeStatus
              + " and GET with HTTP "
              + status
              + ": it speaks neither Streamable HTTP nor HTTP+SSE");
    }
    transport.spawn("legacy-sse", () -> read(in));
    try {
      endpoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(
          "interrupted while waiting for the endpoint event from " + streamUri, e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new TransportException(
          "no endpoint event from " + streamUri + " within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof TransportException te
          ? te
          : new TransportException(String.valueOf(e.getCause()), e.getCause());
    }
  }

  /**
   * Posts one message to the endpoint; replies come on the stream.
   *
   * @throws TransportException when the endpoint cannot be reached or refuses the message
   */
  void post(JsonRpcMessage message) {
    URI target = endpoint.getNow(null);
    if (target == null) {
      throw new TransportException("no endpoint known for " + streamUri);
    }
    HttpRequest request =
        transport
            .request(target)
            .header("Content-Type", Http.JSON)
            .header("Accept", Http.ACCEPT_BOTH)
            .POST(HttpRequest.BodyPublishers.ofByteArray(MessageCodec.encode(message)))
            .build();
    HttpResponse<Void> response;
    try {
      response = transport.client().send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw Http.unreachable(target, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while sending to " + target, e);
    }
    if (!Http.isSuccess(response.statusCode())) {
      throw new TransportException(
          target + " refused a message with HTTP " + response.statusCode());
    }
  }

  private void read(InputStream in) {
    SseParser parser = new SseParser(this::onEvent, transport.maxEventBytes());
    TransportException failure = null;
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) != -1) {
        parser.feed(buf, 0, n);
      }
      parser.finish();
    } catch (IOException e) {
      failure =
          new TransportException(
              "the HTTP+SSE stream from " + streamUri + " failed: " + Http.reason(e), e);
    } catch (TransportException e) {
      failure = e;
    } finally {
      transport.untrack(in);
    }
    if (failure == null) {
      failure = new TransportException("the HTTP+SSE stream from " + streamUri + " ended");
    }
    if (endpoint.state() == Future.State.FAILED
        && endpoint.exceptionNow() instanceof TransportException refused) {
      failure = refused; // the endpoint was refused: that is the reason, not the end of the stream
    }
    endpoint.completeExceptionally(failure);
    if (!transport.isClosed()) {
      transport.fail(failure);
    }
  }

  private void onEvent(String type, byte[] data, int length, String lastEventId) {
    if ("endpoint".equals(type)) {
      if (endpoint.isDone()) {
        return; // only the first endpoint counts
      }
      URI target = resolve(new String(data, 0, length, StandardCharsets.UTF_8).trim());
      if (target == null || !Http.sameOrigin(streamUri, target)) {
        TransportException refused =
            new TransportException(
                "the endpoint event from " + streamUri + " does not name a URI on the same origin");
        endpoint.completeExceptionally(refused);
        throw refused; // stops reading
      } else {
        endpoint.complete(target);
      }
    } else if ("message".equals(type)) {
      transport.deliverEvent(data, length);
    }
  }

  private @Nullable URI resolve(String text) {
    try {
      return streamUri.resolve(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
