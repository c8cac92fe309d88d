package dev.herald.redis;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.InputRequest;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link StoredTask} as JSON bytes in Redis, and back to an equal record. Times are ISO-8601
 * instants and durations (exact to the nanosecond); the outcome and input requests are the wire's
 * own JSON.
 */
final class TaskCodec {
  private TaskCodec() {}

  static byte[] encode(StoredTask t) {
    ObjectNode n = McpJson.object();
    n.put("id", t.taskId());
    n.put("ownerKind", t.owner().kind().name());
    n.put("ownerId", t.owner().id());
    n.put("method", t.method());
    n.put("era", t.era().name());
    n.put("status", t.status().wire());
    if (t.statusMessage() != null) {
      n.put("statusMessage", t.statusMessage());
    }
    n.put("createdAt", t.createdAt().toString());
    n.put("lastUpdatedAt", t.lastUpdatedAt().toString());
    if (t.ttl() != null) {
      n.put("ttl", t.ttl().toString());
    }
    n.put("pollInterval", t.pollInterval().toString());
    if (!t.inputRequests().isEmpty()) {
      ObjectNode inputs = n.putObject("inputRequests");
      t.inputRequests().forEach((k, r) -> inputs.set(k, McpJson.toTree(r)));
    }
    switch (t.outcome()) {
      case null -> {}
      case TaskOutcome.Result r -> n.set("result", r.result());
      case TaskOutcome.Error e -> {
        ObjectNode err = n.putObject("error");
        err.put("code", e.error().code());
        err.put("message", e.error().message());
        if (e.error().data() != null) {
          err.set("data", e.error().data());
        }
      }
    }
    n.put("version", t.version());
    return McpJson.mapper().writeValueAsBytes(n);
  }

  /**
   * The task in {@code json}.
   *
   * @throws IllegalStateException if it is not a task this codec wrote
   */
  static StoredTask decode(byte[] json) {
    try {
      JsonNode n = McpJson.mapper().readTree(json);
      Map<String, InputRequest> inputs = new LinkedHashMap<>();
      JsonNode in = n.get("inputRequests");
      if (in != null) {
        for (var e : in.properties()) {
          inputs.put(e.getKey(), McpJson.fromTree(e.getValue(), InputRequest.class));
        }
      }
      TaskOutcome outcome = null;
      if (n.get("result") instanceof ObjectNode r) {
        outcome = new TaskOutcome.Result(r);
      } else if (n.get("error") instanceof ObjectNode e) {
        JsonNode data = e.get("data");
        outcome =
            new TaskOutcome.Error(
                new JsonRpcMessage.ErrorObject(e.get("code").intValue(), text(e, "message"), data));
      }
      return new StoredTask(
          text(n, "id"),
          new TaskOwner(TaskOwner.Kind.valueOf(text(n, "ownerKind")), text(n, "ownerId")),
          text(n, "method"),
          ProtocolVersion.Era.valueOf(text(n, "era")),
          TaskStatus.parse(text(n, "status")).orElseThrow(),
          optionalText(n, "statusMessage"),
          Instant.parse(text(n, "createdAt")),
          Instant.parse(text(n, "lastUpdatedAt")),
          n.has("ttl") ? Duration.parse(text(n, "ttl")) : null,
          Duration.parse(text(n, "pollInterval")),
          inputs,
          outcome,
          n.get("version").longValue());
    } catch (RuntimeException e) {
      throw new IllegalStateException("a task in Redis is not readable: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isString()) {
      throw new IllegalArgumentException("no " + field);
    }
    return v.stringValue();
  }

  private static @Nullable String optionalText(JsonNode n, String field) {
    return n.has(field) ? text(n, field) : null;
  }
}
