package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.client.TaskListener;
import dev.herald.client.TaskSnapshot;
import dev.herald.client.TerminalText;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.TimeoutException;
import dev.herald.transport.TransportException;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Tool;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code herald call}: calls one tool with a live progress bar, the server's log lines, then the
 * result. On a terminal everything goes to stdout, the bar redrawn in place; otherwise
 * progress and logs are plain lines on stderr and stdout holds only the result.
 *
 * <p>With {@code --task} the tool runs as a task (MCP 2025-11-25 basic/utilities/tasks; the
 * 2026-07-28 extension {@code io.modelcontextprotocol/tasks}): the bar's line also shows the task's
 * status and status message, Ctrl-C sends {@code tasks/cancel} (never {@code
 * notifications/cancelled}), and the exit code is the task's outcome: 0 completed, 1 failed (a
 * tool error or a protocol error) or cancelled by someone else, 124 timed out (the task was then
 * cancelled), 130 Ctrl-C.
 */
@Command(
    name = "call",
    description = {
      "Call a tool, showing its progress and logs live, then its result.",
      "  herald call <tool> [key=value...] -- <server command...>",
      "  herald call <http(s)://url> <tool> [key=value...]",
      "  herald call --task <tool> ...   (run it as a task; Ctrl-C sends tasks/cancel)"
    },
    mixinStandardHelpOptions = true)
final class CallCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      paramLabel = "ARG",
      description =
          "[url] tool [key=value...] [-- command...]; values are JSON when valid JSON, else strings")
  List<String> positionals = new ArrayList<>();

  @Option(
      names = "--json",
      paramLabel = "OBJECT",
      description = "Arguments as a JSON object; key=value pairs are set over it.")
  @Nullable String json;

  @Option(
      names = "--unit",
      description = "What the progress counts, shown with the numbers (e.g. files).")
  @Nullable String unit;

  @Option(
      names = "--idle-timeout",
      paramLabel = "DURATION",
      converter = Durations.class,
      description =
          "Give up when neither progress nor the result came for this long (500ms, 30s, 5m).")
  @Nullable Duration idleTimeout;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = Durations.class,
      description = "Give up after this long in all; progress never extends it.")
  @Nullable Duration timeout;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      description = "text (default) or json: the result and the call's progress record.")
  String output = "text";

  @Option(
      names = "--plain",
      description = "Plain lines, no animation (the default when not on a terminal).")
  boolean plain;

  @Option(
      names = {"-v", "--verbose"},
      description = "Pass the server's stderr through to ours.")
  boolean verbose;

  @Option(
      names = "--task",
      description =
          "Run the tool as a task: a status row with the progress bar, Ctrl-C sends tasks/cancel,"
              + " the exit code is the task's outcome.")
  boolean task;

  @CommandLine.Mixin EraOption era = new EraOption();

  @Override
  public Integer call() throws Exception {
    ServerTarget.Split split = ServerTarget.split(spec, positionals);
    if (split.rest().isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "name the tool to call");
    }
    boolean jsonOutput =
        switch (output.toLowerCase(Locale.ROOT)) {
          case "json" -> true;
          case "text" -> false;
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(), "--output must be text or json, not " + output);
        };
    String toolName = split.rest().get(0);
    Map<String, String> pairs;
    ObjectNode base;
    try {
      pairs = ToolArguments.parse(split.rest().subList(1, split.rest().size()));
      base = ToolArguments.parseJson(json);
    } catch (ToolArguments.BadArgument e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }

    boolean terminal = !plain && !jsonOutput && Terminal.interactive();
    PrintStream ui = terminal ? System.out : System.err;
    PrintStream err = System.err;
    ProgressBar bar =
        new ProgressBar(
            ui, terminal, toolName, unit, System::nanoTime, ProgressBar.columns(), terminal);
    ServerTarget target = split.target();
    AtomicReference<@Nullable McpClient> client = new AtomicReference<>();
    AtomicReference<@Nullable ToolCallHandle> handle = new AtomicReference<>();
    AtomicReference<@Nullable TaskHandle> taskHandle = new AtomicReference<>();
    try (CtrlC ctrlC =
        CtrlC.onInterrupt(() -> {
          ToolCallHandle h = handle.get();
          if (h != null) {
            h.cancel("cancelled by the user (Ctrl-C)");
          }
          TaskHandle th = taskHandle.get();
          if (th != null) {
            th.cancel("cancelled by the user (Ctrl-C)"); // tasks/cancel, answered before we go on
          }
          McpClient c = client.get();
          if (c != null) {
            c.close(); // a subprocess server: stdin closed, then SIGTERM, then SIGKILL
          }
          bar.finish("");
          err.println("cancelled");
          err.flush();
        })) {
      try {
        client.set(
            target.connect(
                era.apply(McpClient.builder()).onLog(m -> bar.log(logLine(m))), verbose, err));
      } catch (RuntimeException e) {
        bar.finish("");
        if (ctrlC.fired()) {
          return Errors.INTERRUPTED;
        }
        target.cannotConnect(e, err);
        return Errors.FAILED;
      }
      McpClient c = client.get();
      if (c.era() == ProtocolVersion.Era.MODERN) {
        // A 2026-07-28 request gets logs only when it names a level: ask for what a handshake
        // session sends by default (info and above), on this call's own stream.
        c.setLoggingLevel(LoggingLevel.INFO);
      }
      ObjectNode arguments;
      try {
        Tool tool =
            c.tools().stream().filter(t -> t.name().equals(toolName)).findFirst().orElse(null);
        arguments = ToolArguments.build(pairs, base, tool == null ? null : tool.inputSchema());
      } catch (ToolArguments.BadArgument e) {
        bar.finish("");
        c.close();
        err.println("herald: " + e.getMessage());
        return Errors.USAGE;
      }
      CallOptions.Builder options =
          CallOptions.builder()
              .progress(bar::show)
              .renderInterval(Duration.ofMillis(terminal ? 100 : 500));
      if (idleTimeout != null) {
        options.idleTimeout(idleTimeout);
      }
      if (timeout != null) {
        options.timeout(timeout);
      }
      bar.begin();
      if (task) {
        return callAsTask(
            c,
            toolName,
            arguments,
            options.build(),
            bar,
            err,
            ctrlC,
            taskHandle,
            target,
            jsonOutput);
      }
      ToolCallHandle h = c.callToolAsync(toolName, arguments, options.build());
      handle.set(h);
      CallToolResult result;
      try {
        result = h.await();
      } catch (CancelledException | McpException | TransportException e) {
        bar.finish("");
        if (ctrlC.fired()) {
          return Errors.INTERRUPTED;
        }
        err.println("herald: " + TerminalText.line(failure(e, target)));
        c.close();
        return Errors.exitCode(e);
      }
      bar.finish("");
      if (jsonOutput) {
        System.out.println(Terminal.json(json(result, h.progressRecord(), null)));
      } else {
        print(result, result.failed() ? err : System.out);
      }
      System.out.flush();
      c.close();
      return result.failed() ? Errors.FAILED : 0;
    }
  }

  /**
   * The task path: the task is created, followed to its outcome with its status on the bar's line,
   * and its result printed as a plain call's.
   */
  private int callAsTask(
      McpClient c,
      String toolName,
      ObjectNode arguments,
      CallOptions options,
      ProgressBar bar,
      PrintStream err,
      CtrlC ctrlC,
      AtomicReference<@Nullable TaskHandle> taskHandle,
      ServerTarget target,
      boolean jsonOutput) {
    // A terminal status is drawn once the result settled: the progress listener has seen its last
    // value by then, so the bar is flushed before the line says the task ended.
    TaskListener listener =
        s -> {
          if (!s.terminal()) {
            bar.status(s.status().wire(), TerminalText.line(s.statusMessage()));
          }
        };
    @Nullable TaskHandle t = null;
    CallToolResult result;
    try {
      try {
        t = c.callToolAsTask(toolName, arguments, options, listener);
      } catch (IllegalStateException e) {
        bar.finish("");
        err.println("herald: " + TerminalText.line(e.getMessage()));
        c.close();
        return Errors.FAILED;
      }
      taskHandle.set(t);
      if (t.hasTask()) {
        bar.log("task " + TerminalText.line(t.taskId()));
      } else {
        bar.status("completed", "the server answered at once, without a task");
      }
      try {
        result = t.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancelledException("interrupted");
      }
    } catch (CancelledException | McpException | TransportException e) {
      if (t != null && t.hasTask() && t.status().terminal()) {
        TaskSnapshot end = t.status();
        bar.status(end.status().wire(), TerminalText.line(end.statusMessage()));
      }
      bar.finish("");
      if (ctrlC.fired()) {
        return Errors.INTERRUPTED;
      }
      err.println("herald: " + TerminalText.line(taskFailure(e, target)));
      c.close();
      return Errors.exitCode(e);
    }
    TaskSnapshot last = java.util.Objects.requireNonNull(t).status();
    bar.status(last.status().wire(), TerminalText.line(last.statusMessage()));
    bar.finish("");
    if (jsonOutput) {
      System.out.println(
          Terminal.json(json(result, t.progressRecord(), t.hasTask() ? last : null)));
    } else {
      print(result, result.failed() ? err : System.out);
    }
    System.out.flush();
    c.close();
    return result.failed() ? Errors.FAILED : 0;
  }

  private String taskFailure(RuntimeException e, ServerTarget target) {
    if (e instanceof TimeoutException t) {
      return (t.clock() == TimeoutException.Clock.IDLE
              ? "timed out: no progress or result for "
                  + Durations.format(idleTimeout)
                  + " (--idle-timeout)"
              : "timed out: no result within " + Durations.format(timeout) + " (--timeout)")
          + "; the task was cancelled (tasks/cancel)";
    }
    if (e instanceof CancelledException) {
      return "the task was cancelled: " + e.getMessage();
    }
    if (e instanceof McpException m) {
      return "the task failed: " + m.getMessage() + " (error " + m.code() + ")";
    }
    return failure(e, target);
  }

  private String failure(RuntimeException e, ServerTarget target) {
    if (e instanceof TimeoutException t) {
      return t.clock() == TimeoutException.Clock.IDLE
          ? "timed out: no progress or result for "
              + Durations.format(idleTimeout)
              + " (--idle-timeout); the call was cancelled"
          : "timed out: no result within "
              + Durations.format(timeout)
              + " (--timeout); the call was cancelled";
    }
    if (e instanceof TransportException) {
      return "the server went away during the call: " + e.getMessage() + target.exitNote();
    }
    return Errors.describe(e);
  }

  static String logLine(LoggingMessageParams m) {
    JsonNode data = m.data();
    String text = data == null ? "" : data.isString() ? data.stringValue() : data.toString();
    return TerminalText.line(
        "log [" + m.level().wire() + "] " + (m.logger() == null ? "" : m.logger() + ": ") + text);
  }

  private static ObjectNode json(
      CallToolResult result, Optional<ProgressRecord> progress, @Nullable TaskSnapshot task) {
    ObjectNode o = McpJson.object();
    o.set("result", McpJson.toTree(result));
    if (task != null) {
      ObjectNode t = o.putObject("task");
      t.put("taskId", task.taskId());
      t.put("status", task.status().wire());
      t.put("statusMessage", task.statusMessage());
    }
    ObjectNode p = o.putObject("progress");
    ProgressRecord r = progress.orElse(null);
    if (r != null) {
      p.put("accepted", r.accepted());
      p.put("rejected", r.rejectedTotal());
      p.put("rendered", r.rendered());
      if (r.lastProgress() == null) {
        p.putNull("lastProgress");
      } else {
        p.put("lastProgress", r.lastProgress());
      }
      p.put("totalKnown", r.totalKnown());
      p.put("terminal", r.terminal() == null ? null : r.terminal().name().toLowerCase(Locale.ROOT));
      p.put("elapsedMs", r.elapsed().toMillis());
    }
    return o;
  }

  /**
   * Text blocks as they are, cleaned for the terminal (line feeds and tabs kept, escape sequences
   * and other control characters removed); other content summarized on a line of its own.
   */
  static void print(CallToolResult result, PrintStream out) {
    for (ContentBlock block : result.content()) {
      out.println(
          switch (block) {
            case ContentBlock.Text t -> TerminalText.text(t.text());
            case ContentBlock.Image i ->
                TerminalText.line(
                    "[image " + i.mimeType() + ", " + base64Bytes(i.data()) + " bytes]");
            case ContentBlock.Audio a ->
                TerminalText.line(
                    "[audio " + a.mimeType() + ", " + base64Bytes(a.data()) + " bytes]");
            case ContentBlock.ResourceLink l ->
                TerminalText.line(
                    "[resource link "
                        + l.uri()
                        + (l.description() == null ? "" : " " + l.description())
                        + "]");
            case ContentBlock.EmbeddedResource r ->
                r.resource() instanceof dev.herald.wire.ResourceContents.Text t
                    ? TerminalText.text(t.text())
                    : TerminalText.line(
                        "[resource "
                            + r.resource().uri()
                            + (r.resource().mimeType() == null
                                ? ""
                                : ", " + r.resource().mimeType())
                            + "]");
          });
    }
    if (result.content().isEmpty() && result.structuredContent() != null) {
      out.println(Terminal.prettyJson(result.structuredContent()));
    }
    out.flush();
  }

  private static long base64Bytes(String data) {
    int pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
    return Math.max(0, data.length() * 3L / 4 - pad);
  }
}
