package dev.herald.server;

import dev.herald.tasks.StoredTask;
import dev.herald.wire.McpMethods;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code requestState} a 2026-07-28 status notification ({@code notifications/tasks}) carries
 * for its task, and its check when a later {@code tasks/get} sends it back.
 *
 * <p>Design note. A status notification is the full {@code DetailedTask} plus the {@code
 * requestState} the next {@code tasks/get} would mint, so a client can follow a task without
 * another round trip and hand the state back when it does poll. Herald seals it with the same
 * {@link RequestStateCodec} as the states of input rounds (HMAC-SHA256, key rotation, bounded
 * size), with claims that only a task state has: method {@code tasks/get}, name = the task id,
 * bound to the digest of the principal the listener was authenticated as (none without one). It
 * expires with the task (its TTL), or after the codec's lifetime for a task kept without limit:
 * a state is never worth more than the task id it names, which is the capability in the
 * unauthenticated case anyway.
 *
 * <p>What it buys: a node that keeps no session (any node behind a load balancer, sharing only
 * the task store) can verify, from the request alone, that the client followed <em>this</em>
 * task through a notification this server issued, for this principal, before the task expired.
 * A state that is forged, expired, minted for another task or another principal, or an input
 * round's state, is refused with -32602; {@code tasks/get} without one is served as ever. Neither
 * the {@code CreateTaskResult} nor the {@code tasks/get} result carries one (SEP-2663 defines no
 * {@code requestState} on the task shapes).
 *
 * <p>Thread-safe (stateless over the codec).
 */
final class TaskRequestStates {
  private final RequestStateCodec codec;

  TaskRequestStates(RequestStateCodec codec) {
    this.codec = codec;
  }

  /**
   * The state a {@code tasks/get} for {@code task} accepts.
   *
   * @param principal the digest of the principal it is issued to ({@link InputRounds#principal}),
   *     or {@code null}
   */
  String mint(StoredTask task, @Nullable String principal) {
    long now = codec.settings().clock.millis();
    long expires =
        task.expiresAt().map(at -> at.toEpochMilli()).orElse(now + codec.settings().ttl.toMillis());
    return codec.seal(
        new RequestStateCodec.Claims(
            McpMethods.TASKS_GET,
            task.taskId(),
            "",
            principal,
            Math.max(expires, now),
            Map.of(),
            Map.of(),
            null));
  }

  /**
   * Checks a state a {@code tasks/get} for {@code taskId} sent back.
   *
   * @param principal the digest of the principal behind that request, or {@code null}
   * @throws dev.herald.wire.McpException -32602 when the state is malformed, forged or expired,
   *     or was issued for another task, for another principal, or for anything but a task
   */
  void verify(String state, String taskId, @Nullable String principal) {
    RequestStateCodec.Claims claims = codec.open(state);
    if (!McpMethods.TASKS_GET.equals(claims.method()) || !claims.name().equals(taskId)) {
      throw RequestStateCodec.invalid("requestState was not issued for this task");
    }
    if (!Objects.equals(claims.principal(), principal)) {
      throw RequestStateCodec.invalid("requestState was issued to a different principal");
    }
  }
}
