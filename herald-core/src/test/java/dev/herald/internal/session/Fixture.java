package dev.herald.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.herald.session.CancelledException;
import dev.herald.testing.Eventually;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Helpers shared by the session tests: reading what a transport end sent, waiting for a condition
 * with a safety-net timeout (never a sleep that decides an outcome), and futures.
 */
final class Fixture {
  /** The safety net for every wait: generous, never reached by a passing test. */
  static final Duration WAIT = Duration.ofSeconds(5);

  private Fixture() {}

  static JsonNode json(String text) {
    return McpJson.mapper().readTree(text);
  }

  static ObjectNode object(String text) {
    return (ObjectNode) json(text);
  }

  /** Everything {@code end} sent, parsed. */
  static List<JsonNode> frames(InMemoryTransport end) {
    List<JsonNode> out = new ArrayList<>();
    for (String s : end.sent()) {
      out.add(json(s));
    }
    return out;
  }

  /** The notifications or requests with {@code method} that {@code end} sent. */
  static List<JsonNode> withMethod(InMemoryTransport end, String method) {
    return frames(end).stream().filter(f -> method.equals(text(f, "method"))).toList();
  }

  /** The responses (results or errors) to {@code id} that {@code end} sent, keeping 1 and "1" apart. */
  static List<JsonNode> responsesTo(InMemoryTransport end, RequestId id) {
    return frames(end).stream().filter(f -> isResponse(f) && id.equals(idOf(f))).toList();
  }

  static List<JsonNode> responses(InMemoryTransport end) {
    return frames(end).stream().filter(Fixture::isResponse).toList();
  }

  static boolean isResponse(JsonNode f) {
    return f.has("result") || f.has("error");
  }

  static RequestId idOf(JsonNode frame) {
    JsonNode id = frame.get("id");
    return id == null || id.isNull() ? null : RequestId.fromJson(id);
  }

  static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asString();
  }

  /** The request with {@code method} that {@code end} sent (exactly one). */
  static JsonNode onlyRequest(InMemoryTransport end, String method) {
    List<JsonNode> found = withMethod(end, method).stream().filter(f -> f.has("id")).toList();
    assertThat(found).as("requests %s sent", method).hasSize(1);
    return found.get(0);
  }

  /** The progress token a request carried in {@code _meta}. */
  static ProgressToken tokenOf(JsonNode request) {
    return ProgressToken.fromJson(request.get("params").get("_meta").get("progressToken"));
  }

  /** The {@code requestId}s of the {@code notifications/cancelled} that {@code end} sent. */
  static List<RequestId> cancelledIds(InMemoryTransport end) {
    return withMethod(end, "notifications/cancelled").stream()
        .map(f -> RequestId.fromJson(f.get("params").get("requestId")))
        .toList();
  }

  /** The {@code progress} values of the {@code notifications/progress} that {@code end} sent. */
  static List<Double> progressValues(InMemoryTransport end) {
    return withMethod(end, "notifications/progress").stream()
        .map(f -> f.get("params").get("progress").asDouble())
        .toList();
  }

  static String progressFrame(ProgressToken token, String progressJson, String extra) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
        + McpJson.toTree(token)
        + ",\"progress\":"
        + progressJson
        + extra
        + "}}";
  }

  /** Waits until {@code condition} holds; fails after {@link #WAIT}. */
  static void await(BooleanSupplier condition, String what) {
    Eventually.eventually(WAIT, condition, what);
  }

  static void await(CountDownLatch latch, String what) {
    try {
      if (!latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("timed out waiting until " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted waiting until " + what);
    }
  }

  static <T> T get(CompletableFuture<T> future) {
    try {
      return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("the future failed", e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the future did not complete within " + WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted");
    }
  }

  /** The exception {@code future} failed with (not wrapped). */
  static Throwable failure(CompletableFuture<?> future) {
    try {
      future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the future did not complete within " + WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted");
    }
    throw new AssertionError("the future completed normally; a failure was expected");
  }

  static void join(Thread t) {
    try {
      if (!t.join(WAIT)) {
        fail("thread " + t + " did not end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted");
    }
  }

  /** Blocks until {@code latch} opens; an interrupt is turned into a {@link CancelledException}. */
  static void block(CountDownLatch latch) {
    try {
      if (!latch.await(WAIT.toMillis() * 2, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("test latch never opened");
      }
    } catch (InterruptedException e) {
      throw new CancelledException("interrupted");
    }
  }
}
