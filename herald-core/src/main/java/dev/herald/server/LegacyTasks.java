package dev.herald.server;

import dev.herald.tasks.StoredTask;
import dev.herald.transport.TransportException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Task;
import dev.herald.wire.TaskStatusNotificationParams;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The handshake-era (2025-11-25) task wire (MCP 2025-11-25 basic/utilities/tasks): a stored task
 * as a {@link Task} (ISO 8601 times, the actual {@code ttl} and {@code pollInterval} in ms on every
 * task response), the server's {@code capabilities.tasks}, and {@code notifications/tasks/status}
 * to the owning session's standing stream on every change after creation (flat {@code Task}, no
 * related-task {@code _meta}).
 *
 * <p>Design note. Status events come from the task runtime's one store listener ({@link
 * TaskRuntime#observe}). A task of this era is told to the session that created it while it runs
 * on this node; a session-bound task found in a shared store is told to the open session it is
 * bound to. The notification goes with no related request, so on Streamable HTTP it rides the
 * session's standing (GET) stream and on stdio the pipe; a session that is not operating, or to
 * which the server declared no {@code tasks} capability, is told nothing. A held-open {@code
 * tasks/get} ({@link TaskMethods#get}) gets the same notifications on its own stream as well.
 */
final class LegacyTasks {
  private LegacyTasks() {}

  /** {@code capabilities.tasks} while some tool of the server may run as a task, else null. */
  static @Nullable ObjectNode capability(McpServer server) {
    boolean any =
        server.tools().stream()
            .anyMatch(t -> t.taskSupport() != dev.herald.wire.TaskSupport.FORBIDDEN);
    if (!any) {
      return null;
    }
    ObjectNode tasks = McpJson.object();
    tasks.putObject("list");
    tasks.putObject("cancel");
    tasks.putObject("requests").putObject("tools").putObject("call");
    return tasks;
  }

  /** The wire {@code Task} of a stored one. */
  static Task task(StoredTask t) {
    return new Task(
        t.taskId(),
        t.status(),
        t.statusMessage(),
        t.createdAt().toString(),
        t.lastUpdatedAt().toString(),
        millis(t.ttl()),
        millis(t.pollInterval()));
  }

  private static @Nullable Long millis(@Nullable Duration d) {
    return d == null ? null : d.toMillis();
  }

  /** The params of {@code notifications/tasks/status} for a stored task. */
  static @Nullable ObjectNode statusParams(StoredTask t) {
    return McpJson.toObject(TaskStatusNotificationParams.of(task(t)));
  }

  /** The runtime's observer: tells the owning session about each change of a handshake-era task. */
  static void onChange(McpServer server, StoredTask t) {
    if (t.era() != ProtocolVersion.Era.LEGACY || t.version() == 1) {
      return; // creation is told by the CreateTaskResult
    }
    ServerSession to = owningSession(server, t);
    if (to == null
        || to.state() != ServerSession.State.OPERATING
        || to.serverCapabilities().tasks() == null) {
      return;
    }
    try {
      to.engine().notify(McpMethods.TASKS_STATUS, statusParams(t), null);
    } catch (TransportException e) {
      // the session is closing: its tasks end with it
    }
  }

  private static @Nullable ServerSession owningSession(McpServer server, StoredTask t) {
    var running = server.taskRuntime.running(t.taskId());
    if (running.isPresent()) {
      ServerSession s = running.get().session();
      return s.engine().isOpen() ? s : null;
    }
    if (t.owner().kind() != dev.herald.tasks.TaskOwner.Kind.SESSION) {
      return null;
    }
    for (ServerSession s : server.sessions) {
      if (s.taskSessionId().equals(t.owner().id())) {
        return s;
      }
    }
    return null;
  }
}
