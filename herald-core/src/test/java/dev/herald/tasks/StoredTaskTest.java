package dev.herald.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.InputRequest;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The status machine of MCP 2025-11-25 basic/utilities/tasks, as {@link StoredTask} keeps it. */
class StoredTaskTest {
  static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
  static final Instant T1 = T0.plusSeconds(1);
  static final Map<String, InputRequest> ASK = Map.of("roots", InputRequest.listRoots());

  static StoredTask working(ProtocolVersion.Era era) {
    return StoredTask.create(
        "t1",
        TaskOwner.anyone(),
        "tools/call",
        era,
        T0,
        Duration.ofMinutes(1),
        Duration.ofSeconds(1));
  }

  static StoredTask working() {
    return working(ProtocolVersion.Era.MODERN);
  }

  static StoredTask inputRequired() {
    return working().needInput(ASK, "which roots?", T0).orElseThrow();
  }

  static StoredTask in(TaskStatus status) {
    return switch (status) {
      case WORKING -> working();
      case INPUT_REQUIRED -> inputRequired();
      case COMPLETED -> working().complete(result(false), T0).orElseThrow();
      case FAILED -> working().complete(error(), T0).orElseThrow();
      case CANCELLED -> working().cancel(null, T0).orElseThrow();
    };
  }

  static TaskOutcome.Result result(boolean isError) {
    ObjectNode r = JsonNodeFactory.instance.objectNode();
    r.putArray("content").addObject().put("type", "text").put("text", "x");
    if (isError) {
      r.put("isError", true);
    }
    return new TaskOutcome.Result(r);
  }

  static TaskOutcome.Error error() {
    return new TaskOutcome.Error(new JsonRpcMessage.ErrorObject(-32603, "boom", null));
  }

  /** Every change the machine knows, by name. */
  static final Map<String, Function<StoredTask, Optional<StoredTask>>> CHANGES =
      Map.of(
          "withMessage", t -> t.withMessage("new message", T1),
          "needInput", t -> t.needInput(Map.of("more", InputRequest.listRoots()), null, T1),
          "answered", t -> t.answered(Set.of("roots"), T1),
          "working", t -> t.working("back at it", T1),
          "complete", t -> t.complete(result(false), T1),
          "fail", t -> t.complete(error(), T1),
          "cancel", t -> t.cancel("stop", T1));

  @Test
  void aNewTaskIsWorkingAtVersionOneWithNothingOutstanding() {
    StoredTask t = working();
    assertThat(t.status()).isEqualTo(TaskStatus.WORKING);
    assertThat(t.version()).isEqualTo(1);
    assertThat(t.lastUpdatedAt()).isEqualTo(t.createdAt()).isEqualTo(T0);
    assertThat(t.inputRequests()).isSameAs(Map.of());
    assertThat(t.outcome()).isNull();
    assertThat(t.statusMessage()).isNull();
    assertThat(t.terminal()).isFalse();
  }

  @Test
  void fromWorkingEveryChangeButAnsweringIsAllowed() {
    StoredTask t = working();
    assertThat(CHANGES.get("withMessage").apply(t).orElseThrow().status())
        .isEqualTo(TaskStatus.WORKING);
    assertThat(CHANGES.get("needInput").apply(t).orElseThrow().status())
        .isEqualTo(TaskStatus.INPUT_REQUIRED);
    assertThat(CHANGES.get("working").apply(t).orElseThrow().status())
        .isEqualTo(TaskStatus.WORKING);
    assertThat(CHANGES.get("complete").apply(t).orElseThrow().status())
        .isEqualTo(TaskStatus.COMPLETED);
    assertThat(CHANGES.get("fail").apply(t).orElseThrow().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(CHANGES.get("cancel").apply(t).orElseThrow().status())
        .isEqualTo(TaskStatus.CANCELLED);
    assertThat(CHANGES.get("answered").apply(t)).as("nothing is outstanding").isEmpty();
  }

  @Test
  void fromInputRequiredEveryChangeIsAllowed() {
    StoredTask t = inputRequired();
    assertThat(t.inputRequests()).isEqualTo(ASK);
    StoredTask more = CHANGES.get("needInput").apply(t).orElseThrow();
    assertThat(more.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
    assertThat(more.inputRequests()).containsOnlyKeys("roots", "more");
    assertThat(CHANGES.get("withMessage").apply(t).orElseThrow().inputRequests()).isEqualTo(ASK);
    StoredTask answered = CHANGES.get("answered").apply(t).orElseThrow();
    assertThat(answered.status()).isEqualTo(TaskStatus.WORKING);
    assertThat(answered.inputRequests()).isEmpty();
    StoredTask back = CHANGES.get("working").apply(t).orElseThrow();
    assertThat(back.status()).isEqualTo(TaskStatus.WORKING);
    assertThat(back.inputRequests()).isEmpty();
    for (String terminal : List.of("complete", "fail", "cancel")) {
      StoredTask end = CHANGES.get(terminal).apply(t).orElseThrow();
      assertThat(end.terminal()).as(terminal).isTrue();
      assertThat(end.inputRequests()).as(terminal).isEmpty();
    }
  }

  @Test
  void answeringSomeInputRequestsKeepsTheRestOutstanding() {
    StoredTask t =
        working()
            .needInput(
                Map.of("a", InputRequest.listRoots(), "b", InputRequest.listRoots()), "m", T0)
            .orElseThrow();
    StoredTask one = t.answered(Set.of("a", "unknown"), T1).orElseThrow();
    assertThat(one.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
    assertThat(one.inputRequests()).containsOnlyKeys("b");
    assertThat(one.statusMessage()).isEqualTo("m");
    assertThat(one.answered(Set.of("a"), T1)).as("already answered").isEmpty();
    StoredTask done = one.answered(Set.of("b"), T1).orElseThrow();
    assertThat(done.status()).isEqualTo(TaskStatus.WORKING);
    assertThat(done.statusMessage()).isNull();
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskStatus.class,
      names = {"COMPLETED", "FAILED", "CANCELLED"})
  void aTerminalTaskNeverChanges(TaskStatus status) {
    StoredTask t = in(status);
    assertThat(t.terminal()).isTrue();
    CHANGES.forEach((name, change) -> assertThat(change.apply(t)).as(name).isEmpty());
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskStatus.class,
      names = {"WORKING", "INPUT_REQUIRED"})
  void everyChangeAddsOneVersionAndKeepsWhatATaskIs(TaskStatus status) {
    StoredTask t = in(status);
    CHANGES.forEach((name, change) ->
        change
            .apply(t)
            .ifPresent(n -> {
              assertThat(n.version()).as(name).isEqualTo(t.version() + 1);
              assertThat(n.lastUpdatedAt()).as(name).isEqualTo(T1);
              assertThat(List.of(n.taskId(), n.owner(), n.method(), n.era()))
                  .as(name)
                  .isEqualTo(List.of(t.taskId(), t.owner(), t.method(), t.era()));
              assertThat(List.of(n.createdAt(), n.ttl(), n.pollInterval()))
                  .as(name)
                  .isEqualTo(List.of(t.createdAt(), t.ttl(), t.pollInterval()));
            }));
  }

  @Test
  void lastUpdatedAtNeverGoesBackWhenTheClockDoes() {
    StoredTask later = working().withMessage("a", T0.plusSeconds(10)).orElseThrow();
    StoredTask back = later.withMessage("b", T0.plusSeconds(5)).orElseThrow();
    assertThat(back.lastUpdatedAt()).isEqualTo(T0.plusSeconds(10));
    StoredTask beforeCreation = working().cancel(null, T0.minusSeconds(5)).orElseThrow();
    assertThat(beforeCreation.lastUpdatedAt()).isEqualTo(T0);
  }

  @Test
  void aChangeThatChangesNothingIsEmpty() {
    StoredTask t = working().withMessage("same", T0).orElseThrow();
    assertThat(t.withMessage("same", T1)).isEmpty();
    assertThat(t.working("same", T1)).isEmpty();
    assertThat(working().withMessage(null, T1)).isEmpty();
    assertThat(working().working(null, T1)).isEmpty();
    assertThat(inputRequired().answered(Set.of("unknown"), T1)).isEmpty();
    assertThat(inputRequired().answered(Set.of(), T1)).isEmpty();
    assertThat(inputRequired().needInput(ASK, "which roots?", T1)).isEmpty();
    assertThat(inputRequired().needInput(Map.of(), "which roots?", T1)).isEmpty();
    assertThat(inputRequired().needInput(Map.of(), "another question", T1)).isPresent();
  }

  @Test
  void aLegacyToolResultWithIsErrorFailsAModernOneCompletes() {
    assertThat(
            working(ProtocolVersion.Era.LEGACY).complete(result(true), T1).orElseThrow().status())
        .isEqualTo(TaskStatus.FAILED);
    assertThat(
            working(ProtocolVersion.Era.MODERN).complete(result(true), T1).orElseThrow().status())
        .isEqualTo(TaskStatus.COMPLETED);
    for (ProtocolVersion.Era era : ProtocolVersion.Era.values()) {
      assertThat(working(era).complete(result(false), T1).orElseThrow().status())
          .as("%s result", era)
          .isEqualTo(TaskStatus.COMPLETED);
      StoredTask failed = working(era).complete(error(), T1).orElseThrow();
      assertThat(failed.status()).as("%s error", era).isEqualTo(TaskStatus.FAILED);
      assertThat(failed.outcome()).isEqualTo(error());
    }
  }

  @Test
  void theOutcomeOfACompletedTaskIsKeptAndACancelledOneHasNone() {
    TaskOutcome.Result r = result(false);
    assertThat(working().complete(r, T1).orElseThrow().outcome()).isEqualTo(r);
    assertThat(working().cancel("stop", T1).orElseThrow().outcome()).isNull();
    assertThat(working().cancel("stop", T1).orElseThrow().statusMessage()).isEqualTo("stop");
  }

  @Test
  void aTaskExpiresExactlyWhenItsTtlRunsOutAndNeverWithoutOne() {
    StoredTask t = working();
    assertThat(t.expiresAt()).contains(T0.plusSeconds(60));
    assertThat(t.expired(T0.plusSeconds(59))).isFalse();
    assertThat(t.expired(T0.plusSeconds(60))).isTrue();
    StoredTask forever =
        StoredTask.create(
            "t2",
            TaskOwner.anyone(),
            "tools/call",
            ProtocolVersion.Era.MODERN,
            T0,
            null,
            Duration.ofSeconds(1));
    assertThat(forever.expiresAt()).isEmpty();
    assertThat(forever.expired(Instant.MAX)).isFalse();
    StoredTask huge =
        StoredTask.create(
            "t3",
            TaskOwner.anyone(),
            "tools/call",
            ProtocolVersion.Era.MODERN,
            T0,
            Duration.ofSeconds(Long.MAX_VALUE),
            Duration.ofSeconds(1));
    assertThat(huge.expiresAt()).contains(Instant.MAX);
    assertThat(huge.expired(T0.plus(Duration.ofDays(365 * 1000)))).isFalse();
  }

  @Test
  void aTtlMustBePositiveAndAPollIntervalNotNegative() {
    for (Duration ttl : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
      assertThatThrownBy(() ->
              StoredTask.create(
                  "t",
                  TaskOwner.anyone(),
                  "tools/call",
                  ProtocolVersion.Era.MODERN,
                  T0,
                  ttl,
                  Duration.ofSeconds(1)))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() ->
            StoredTask.create(
                "t",
                TaskOwner.anyone(),
                "tools/call",
                ProtocolVersion.Era.MODERN,
                T0,
                null,
                Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRecordThatBreaksTheMachineCannotBeMade() {
    StoredTask t = working();
    for (TaskStatus s :
        EnumSet.of(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED, TaskStatus.CANCELLED)) {
      assertThatThrownBy(() -> copy(t, s, Map.of(), result(false), 1))
          .as("outcome when %s", s)
          .isInstanceOf(IllegalArgumentException.class);
    }
    for (TaskStatus s : EnumSet.complementOf(EnumSet.of(TaskStatus.INPUT_REQUIRED))) {
      assertThatThrownBy(() -> copy(t, s, ASK, null, 1))
          .as("input requests when %s", s)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> copy(t, TaskStatus.WORKING, Map.of(), null, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static StoredTask copy(
      StoredTask t,
      TaskStatus s,
      Map<String, InputRequest> inputs,
      @Nullable TaskOutcome outcome,
      long version) {
    return new StoredTask(
        t.taskId(),
        t.owner(),
        t.method(),
        t.era(),
        s,
        null,
        t.createdAt(),
        t.lastUpdatedAt(),
        t.ttl(),
        t.pollInterval(),
        inputs,
        outcome,
        version);
  }
}
