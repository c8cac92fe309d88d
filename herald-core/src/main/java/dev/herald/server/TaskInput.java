package dev.herald.server;

import dev.herald.session.CallOptions;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a task's handler asks its requestor for input, one implementation per era: in the handshake
 * era a server-to-client request carrying the related-task {@code _meta}, the task {@code
 * input_required} while it waits ({@link ReverseTaskInput}); in the 2026-07-28 tasks extension the
 * ask waits until {@code tasks/update} answers it. {@link TaskContext} delegates every ask here.
 *
 * <p>Implementations are thread-safe: a handler may ask from several threads.
 */
interface TaskInput {

  /**
   * Asks one question and waits for the answer, as {@code type}.
   *
   * @param key the input key, or {@code null} for one of the implementation's choosing
   * @throws dev.herald.wire.McpException as {@link RequestContext#sample} documents
   * @throws InterruptedException if the task was cancelled while waiting
   */
  <T> T ask(@Nullable String key, InputRequest request, Class<T> type, CallOptions options)
      throws InterruptedException;

  /** Asks several questions; returns the answers by key. */
  InputResponses askAll(Map<String, ? extends InputRequest> requests, CallOptions options)
      throws InterruptedException;

  /** Whether the requestor declared what {@code request} needs. */
  boolean canAsk(InputRequest request);

  /** Makes the input of one running task. */
  @FunctionalInterface
  interface Factory {
    TaskInput create(RunningTask task);
  }
}
