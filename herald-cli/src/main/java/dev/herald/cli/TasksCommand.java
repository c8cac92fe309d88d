package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.client.TaskSnapshot;
import dev.herald.client.TerminalText;
import dev.herald.wire.McpJson;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code herald tasks list|get|cancel}: the tasks a server keeps (MCP 2025-11-25
 * basic/utilities/tasks; the 2026-07-28 extension {@code io.modelcontextprotocol/tasks}), against
 * the same targets as {@code call} and {@code list}. A task belongs to the session (handshake era)
 * or, without authentication, to whoever holds its id (2026-07-28): so {@code get} and {@code
 * cancel} of a task another process started work in the 2026-07-28 era over HTTP, and {@code list}
 * (handshake era only; the extension has no {@code tasks/list}) shows this session's own tasks.
 * The server's status messages are cleaned for the terminal.
 */
@Command(
    name = "tasks",
    description = {
      "Show or cancel a server's tasks.",
      "  herald tasks list|get <id>|cancel <id> -- <server command...>",
      "  herald tasks list|get <id>|cancel <id> <http(s)://url>"
    },
    mixinStandardHelpOptions = true,
    subcommands = {
      TasksCommand.ListTasks.class,
      TasksCommand.GetTask.class,
      TasksCommand.CancelTask.class
    })
final class TasksCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "say what to do: list, get <id> or cancel <id>");
  }

  /** What the three subcommands share: the target, the era, the output format. */
  abstract static class Base implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "ARG", description = "[url] [id] [-- command...]")
    List<String> positionals = new ArrayList<>();

    @Option(
        names = {"-v", "--verbose"},
        description = "Pass the server's stderr through to ours.")
    boolean verbose;

    @Option(names = "--output", paramLabel = "FORMAT", description = "text (default) or json.")
    String output = "text";

    @CommandLine.Mixin EraOption era = new EraOption();

    /** How many positionals (after the target) the subcommand takes: the task id or none. */
    abstract int arity();

    abstract int run(McpClient client, List<String> rest, PrintStream out, boolean json);

    @Override
    public Integer call() throws Exception {
      ServerTarget.Split split = ServerTarget.split(spec, positionals);
      if (split.rest().size() != arity()) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            arity() == 0
                ? "unexpected argument '" + split.rest().get(0) + "'"
                : "name exactly one task id");
      }
      boolean json =
          switch (output.toLowerCase(Locale.ROOT)) {
            case "json" -> true;
            case "text" -> false;
            default ->
                throw new CommandLine.ParameterException(
                    spec.commandLine(), "--output must be text or json, not " + output);
          };
      ServerTarget target = split.target();
      McpClient client;
      try {
        client = target.connect(era.apply(McpClient.builder()), verbose, System.err);
      } catch (RuntimeException e) {
        target.cannotConnect(e, System.err);
        return Errors.FAILED;
      }
      try (client) {
        int code = run(client, split.rest(), System.out, json);
        System.out.flush();
        return code;
      } catch (UnsupportedOperationException | IllegalStateException e) {
        System.err.println("herald: " + TerminalText.line(e.getMessage()));
        return Errors.FAILED;
      } catch (RuntimeException e) {
        System.err.println("herald: " + TerminalText.line(Errors.describe(e)) + target.exitNote());
        return Errors.exitCode(e);
      }
    }
  }

  @Command(
      name = "list",
      description = "List this session's tasks (tasks/list; the handshake era only).",
      mixinStandardHelpOptions = true)
  static final class ListTasks extends Base {
    @Override
    int arity() {
      return 0;
    }

    @Override
    int run(McpClient client, List<String> rest, PrintStream out, boolean json) {
      List<TaskSnapshot> tasks = client.listTasks();
      if (json) {
        ArrayNode a = McpJson.mapper().createArrayNode();
        tasks.forEach(t -> a.add(json(t)));
        out.println(Terminal.json(a));
        return 0;
      }
      out.println("Tasks (" + tasks.size() + ")");
      int width =
          tasks.stream().mapToInt(t -> TerminalText.line(t.taskId()).length()).max().orElse(0);
      for (TaskSnapshot t : tasks) {
        String id = TerminalText.line(t.taskId());
        out.println(
            ("  "
                    + id
                    + " ".repeat(width - id.length())
                    + "  "
                    + String.format(Locale.ROOT, "%-14s", t.status().wire())
                    + "  "
                    + message(t))
                .stripTrailing());
      }
      return 0;
    }
  }

  @Command(
      name = "get",
      description = "Show one task's status (tasks/get).",
      mixinStandardHelpOptions = true)
  static final class GetTask extends Base {
    @Override
    int arity() {
      return 1;
    }

    @Override
    int run(McpClient client, List<String> rest, PrintStream out, boolean json) {
      TaskSnapshot t = client.getTask(rest.get(0));
      if (json) {
        out.println(Terminal.json(json(t)));
      } else {
        describe(t, out);
      }
      return 0;
    }
  }

  @Command(
      name = "cancel",
      description = "Cancel one task (tasks/cancel), then show its status.",
      mixinStandardHelpOptions = true)
  static final class CancelTask extends Base {
    @Override
    int arity() {
      return 1;
    }

    @Override
    int run(McpClient client, List<String> rest, PrintStream out, boolean json) {
      String id = rest.get(0);
      client.cancelTask(id);
      TaskSnapshot t = client.getTask(id);
      if (json) {
        out.println(Terminal.json(json(t)));
      } else {
        out.println("tasks/cancel sent");
        describe(t, out);
      }
      return 0;
    }
  }

  static void describe(TaskSnapshot t, PrintStream out) {
    out.println("task " + TerminalText.line(t.taskId()));
    out.println("  status          " + t.status().wire());
    String m = message(t);
    if (!m.isEmpty()) {
      out.println("  message         " + m);
    }
    out.println("  created         " + time(t.createdAt()));
    out.println("  last updated    " + time(t.lastUpdatedAt()));
    out.println("  kept for        " + duration(t.ttl(), "unlimited"));
    out.println("  poll interval   " + duration(t.pollInterval(), "not suggested"));
  }

  static ObjectNode json(TaskSnapshot t) {
    ObjectNode o = McpJson.object();
    o.put("taskId", t.taskId());
    o.put("status", t.status().wire());
    o.put("statusMessage", t.statusMessage());
    o.put("createdAt", t.createdAt().toString());
    o.put("lastUpdatedAt", t.lastUpdatedAt().toString());
    if (t.ttl() == null) {
      o.putNull("ttlMs");
    } else {
      o.put("ttlMs", t.ttl().toMillis());
    }
    if (t.pollInterval() != null) {
      o.put("pollIntervalMs", t.pollInterval().toMillis());
    }
    return o;
  }

  private static String message(TaskSnapshot t) {
    return t.statusMessage() == null ? "" : TerminalText.line(t.statusMessage());
  }

  private static String time(Instant i) {
    return i.equals(Instant.EPOCH) ? "unknown" : i.toString();
  }

  private static String duration(@Nullable Duration d, String none) {
    if (d == null) {
      return none;
    }
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }
}
