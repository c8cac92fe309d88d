package dev.herald.server;

import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.transport.TransportException;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RelatedTaskMetadata;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A handshake-era task's asks (MCP 2025-11-25 basic/utilities/tasks, "Input Required"): each is a
 * server-to-client request ({@code elicitation/create}, {@code sampling/createMessage}, {@code
 * roots/list}) carrying {@code _meta["io.modelcontextprotocol/related-task"]}, gated like every
 * reverse request on what the client declared. The task is {@code input_required} while an ask
 * waits and back to {@code working} once none does. The request belongs to no client request (it
 * goes on the session's standing stream on Streamable HTTP), is not cancelled when the creating
 * request's response goes out, and is cancelled when the task ends (cancel, expiry, session end).
 *
 * <p>Thread-safe.
 */
final class ReverseTaskInput implements TaskInput {
  private final TaskRuntime runtime;
  private final RunningTask task;
  private final AtomicLong keys = new AtomicLong();

  ReverseTaskInput(TaskRuntime runtime, RunningTask task) {
    this.runtime = runtime;
    this.task = task;
  }

  @Override
  public <T> T ask(@Nullable String key, InputRequest request, Class<T> type, CallOptions options)
      throws InterruptedException {
    task.cancellation().throwIfCancelled();
    ServerSession session = task.session();
    ReverseCalls.requireFor(session, task.call(), request);
    String k = "ask-" + keys.incrementAndGet(); // unique over the task's life, whatever key says
    ObjectNode params = paramsOf(request);
    Instant now = runtime.now();
    runtime.store().update(task.taskId(), now, t -> t.needInput(Map.of(k, request), null, now));
    try {
      OutboundCall out = task.work().request(ReverseCalls.methodOf(request), params, options);
      JsonNode node = await(out);
      return McpJson.resultFromTree(node, type);
    } finally {
      Instant then = runtime.now();
      runtime.store().update(task.taskId(), then, t -> t.answered(Set.of(k), then));
    }
  }

  @Override
  public InputResponses askAll(Map<String, ? extends InputRequest> requests, CallOptions options)
      throws InterruptedException {
    ObjectNode answers = McpJson.object();
    for (Map.Entry<String, ? extends InputRequest> e : requests.entrySet()) {
      Object answer = ask(e.getKey(), e.getValue(), typeOf(e.getValue()), options);
      answers.set(e.getKey(), McpJson.toTree(answer));
    }
    return new InputResponses(answers);
  }

  @Override
  public boolean canAsk(InputRequest request) {
    return ServerMethods.clientSupports(
        task.session(), ReverseCalls.capabilityOf(request), task.call());
  }

  private ObjectNode paramsOf(InputRequest request) {
    ObjectNode params =
        switch (request) {
          case InputRequest.Elicit e -> McpJson.toObject(e.params());
          case InputRequest.CreateMessage m -> McpJson.toObject(m.params());
          case InputRequest.ListRoots r -> null;
        };
    ObjectNode p = params == null ? McpJson.object() : params.deepCopy();
    JsonNode meta = p.get("_meta");
    ObjectNode m = meta instanceof ObjectNode o ? o : p.putObject("_meta");
    m.set(MetaKeys.RELATED_TASK, McpJson.toTree(RelatedTaskMetadata.of(task.taskId())));
    return p;
  }

  private static Class<?> typeOf(InputRequest request) {
    return switch (request) {
      case InputRequest.Elicit e -> ElicitResult.class;
      case InputRequest.CreateMessage m -> CreateMessageResult.class;
      case InputRequest.ListRoots r -> ListRootsResult.class;
    };
  }

  private JsonNode await(OutboundCall out) throws InterruptedException {
    try {
      return out.result().get();
    } catch (InterruptedException e) {
      out.cancel(task.cancellation().isCancelled() ? "task cancelled" : "interrupted");
      throw e;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof McpException
          || c instanceof CancelledException
          || c instanceof TransportException) {
        throw (RuntimeException) c;
      }
      throw new TransportException("reverse call failed: " + c, c);
    }
  }
}
