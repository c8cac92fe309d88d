package dev.herald.opentelemetry;

import dev.herald.session.EventListener;
import dev.herald.wire.TaskStatus;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Design note. A span for each task a session's request created (MCP 2025-11-25
 * basic/utilities/tasks; the 2026-07-28 tasks extension), from its creation to its terminal
 * status on this node. A task outlives the request that created it, so its span is the root of a
 * trace of its own, linked to the request's span: the span current when the task is created,
 * which is the creating request's server span when {@link HeraldTracing#serverInterceptor()}
 * runs and the task starts on the request's thread. Each status change in between is an event;
 * a failed task's span has {@code error.type} {@code task_failed}, a cancelled one's {@code
 * cancelled}.
 *
 * <p>Thread-safe: the open spans are in a concurrent map.
 */
final class TaskSpans implements EventListener {
  static final String NAME = "mcp task";
  static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("herald.task.id");
  static final AttributeKey<String> TASK_STATUS = AttributeKey.stringKey("herald.task.status");

  private final Tracer tracer;
  private final ConcurrentHashMap<String, Span> open = new ConcurrentHashMap<>();

  TaskSpans(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  public void taskStatusChanged(String taskId, TaskStatus status) {
    Span span = open.get(taskId);
    if (span == null) {
      if (status.isTerminal()) {
        return; // its creation was not seen here
      }
      SpanBuilder b = tracer.spanBuilder(NAME).setNoParent().setSpanKind(SpanKind.INTERNAL);
      SpanContext creator = Span.current().getSpanContext();
      if (creator.isValid()) {
        b.addLink(creator);
      }
      b.setAttribute(TASK_ID, taskId);
      span = b.startSpan();
      Span raced = open.putIfAbsent(taskId, span);
      if (raced != null) {
        span = raced;
      }
    }
    span.addEvent("status", Attributes.of(TASK_STATUS, status.wire()));
    if (status.isTerminal() && open.remove(taskId, span)) {
      span.setAttribute(TASK_STATUS, status.wire());
      if (status == TaskStatus.FAILED) {
        span.setAttribute(McpSpans.ERROR_TYPE, "task_failed");
        span.setStatus(StatusCode.ERROR);
      } else if (status == TaskStatus.CANCELLED) {
        span.setAttribute(McpSpans.ERROR_TYPE, "cancelled");
        span.setStatus(StatusCode.ERROR, "cancelled");
      }
      span.end();
    }
  }
}
