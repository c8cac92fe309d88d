package dev.herald.oauth;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Bounded HTTP exchanges with the authorization server: every call has a deadline (an absolute
 * {@link System#nanoTime} value shared by all the exchanges one verification makes) and a body
 * limit. The JDK client's own request timeout covers only the wait for the response headers, so
 * the whole exchange, body included, runs as a blocking {@link HttpClient#send} on a virtual thread
 * of its own, awaited with {@link CompletableFuture#get(long, TimeUnit)} and interrupted at the
 * deadline (which cancels the exchange and closes its connection). A body over the limit is
 * abandoned as it arrives, never buffered whole.
 *
 * <p>Design note. Not {@link HttpClient#sendAsync}: the JDK completes every {@code sendAsync}
 * future through {@link java.util.concurrent.ForkJoinPool#commonPool()}, whose parallelism is one
 * on a two-core machine, so any task of the application blocking there (a pipe read, a parallel
 * stream waiting on I/O) held every verification until its deadline, and made valid tokens look
 * invalid. {@code send} completes on the client's own threads.
 */
final class HttpFetch {
  /** JWK sets, metadata documents and introspection answers are a few kilobytes. */
  static final int MAX_BODY_BYTES = 1 << 20;

  private final HttpClient client;

  HttpFetch(HttpClient client) {
    this.client = client;
  }

  /** A JSON {@code GET}. */
  byte[] get(URI uri, long deadline) throws FetchException {
    return send(
        HttpRequest.newBuilder(uri).GET().header("Accept", "application/json"), deadline, uri);
  }

  /** A form {@code POST} with an {@code Authorization} header, or none when it is null. */
  byte[] postForm(URI uri, String form, @Nullable String authorization, long deadline)
      throws FetchException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return send(request, deadline, uri);
  }

  private byte[] send(HttpRequest.Builder request, long deadline, URI uri) throws FetchException {
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      throw new FetchException(uri + " was not asked: no time was left", true, null);
    }
    HttpRequest built;
    try {
      request.timeout(Duration.ofNanos(remaining));
      built = request.build();
    } catch (IllegalArgumentException e) {
      throw new FetchException(uri + " cannot be asked: " + e.getMessage(), false, e);
    }
    CompletableFuture<HttpResponse<byte[]>> exchange = new CompletableFuture<>();
    Thread sender =
        Thread.ofVirtual()
            .name("herald-oauth-fetch")
            .start(() -> {
              try {
                exchange.complete(client.send(built, info -> limited(MAX_BODY_BYTES)));
              } catch (IOException | RuntimeException e) {
                exchange.completeExceptionally(e);
              } catch (InterruptedException e) {
                exchange.completeExceptionally(e); // cancelled by the waiter below
              }
            });
    HttpResponse<byte[]> response;
    try {
      response = exchange.get(remaining, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      sender.interrupt(); // send() cancels the exchange when interrupted
      throw new FetchException(uri + " did not answer in time", true, e);
    } catch (InterruptedException e) {
      sender.interrupt();
      Thread.currentThread().interrupt();
      throw new FetchException("interrupted while asking " + uri, false, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      boolean timedOut = cause instanceof java.net.http.HttpTimeoutException;
      throw new FetchException(
          uri + (timedOut ? " did not answer in time" : " could not be read: " + cause),
          timedOut,
          cause);
    }
    if (response.statusCode() != 200) {
      throw new FetchException(uri + " answered HTTP " + response.statusCode(), false, null);
    }
    return response.body();
  }

  /** Collects a body of at most {@code max} bytes; a longer one fails as soon as it passes. */
  static BodySubscriber<byte[]> limited(int max) {
    return new BodySubscriber<>() {
      // Flow's rules: onSubscribe, onNext, onError and onComplete are called one at a time.
      private final ByteArrayOutputStream out = new ByteArrayOutputStream();
      private final CompletableFuture<byte[]> body = new CompletableFuture<>();
      private Flow.@Nullable Subscription subscription;

      @Override
      public CompletionStage<byte[]> getBody() {
        return body;
      }

      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
          return;
        }
        for (ByteBuffer item : items) {
          if (out.size() + (long) item.remaining() > max) {
            Flow.Subscription s = subscription;
            if (s != null) {
              s.cancel();
            }
            body.completeExceptionally(
                new IOException("the answer is larger than " + max + " bytes"));
            return;
          }
          byte[] chunk = new byte[item.remaining()];
          item.get(chunk);
          out.write(chunk, 0, chunk.length);
        }
      }

      @Override
      public void onError(Throwable error) {
        body.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        body.complete(out.toByteArray());
      }
    };
  }

  /** An exchange failed; {@link #timedOut} says whether it was for lack of time. */
  static final class FetchException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean timedOut;

    FetchException(String message, boolean timedOut, @Nullable Throwable cause) {
      super(message, cause);
      this.timedOut = timedOut;
    }

    boolean timedOut() {
      return timedOut;
    }
  }
}
