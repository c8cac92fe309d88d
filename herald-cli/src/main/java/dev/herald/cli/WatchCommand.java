package dev.herald.cli;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.SubscriptionListener;
import dev.herald.client.TerminalText;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscriptionFilter;
import java.io.PrintStream;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code herald watch}: connects, subscribes, and prints every notification as it arrives, one
 * timestamped line each, until Ctrl-C (exit 130) or the server goes away (exit 1).
 *
 * <p>The subscription is one {@link McpClient#listen}: {@code subscriptions/listen} on a
 * 2026-07-28 server, the session's {@code list_changed} notifications and {@code
 * resources/subscribe} on a handshake-era one. Logs outside a request reach a client only in a
 * handshake-era session (2026-07-28 logs ride the request that caused them), so {@code --level}
 * with {@code --era latest} tries the handshake first.
 */
@Command(
    name = "watch",
    description = {
      "Print the server's notifications as they arrive: list changes, resource updates, logs.",
      "  herald watch [--resource URI...] [--level L] -- <server command...>",
      "  herald watch [--resource URI...] [--level L] <http(s)://url>"
    },
    mixinStandardHelpOptions = true)
final class WatchCommand implements Callable<Integer> {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "ARG", description = "[url] [-- command...]")
  List<String> positionals = new ArrayList<>();

  @Option(
      names = "--resource",
      paramLabel = "URI",
      description = "Subscribe to this resource (repeatable).")
  List<String> resources = new ArrayList<>();

  @Option(
      names = "--level",
      paramLabel = "LEVEL",
      description =
          "Ask for logs at this level and above: debug, info, notice, warning, error, critical, alert, emergency.")
  @Nullable String level;

  @Option(
      names = {"-v", "--verbose"},
      description = "Pass the server's stderr through to ours.")
  boolean verbose;

  @CommandLine.Mixin EraOption era = new EraOption();

  @Override
  public Integer call() throws Exception {
    ServerTarget.Split split = ServerTarget.split(spec, positionals);
    if (!split.rest().isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "unexpected argument '" + split.rest().get(0) + "'");
    }
    LoggingLevel logLevel =
        level == null
            ? null
            : LoggingLevel.parse(level.toLowerCase(java.util.Locale.ROOT))
                .orElseThrow(() ->
                    new CommandLine.ParameterException(
                        spec.commandLine(), "unknown log level '" + level + "'"));
    PrintStream out = System.out;
    PrintStream err = System.err;
    ServerTarget target = split.target();
    AtomicReference<@Nullable McpClient> client = new AtomicReference<>();
    try (CtrlC ctrlC =
        CtrlC.onInterrupt(() -> {
          McpClient c = client.get();
          if (c != null) {
            c.close();
          }
          err.println("stopped");
          err.flush();
        })) {
      McpClient c;
      try {
        McpClient.Builder builder =
            era.apply(McpClient.builder()).onLog(m -> print(out, CallCommand.logLine(m)));
        if (logLevel != null && era.era == EraOption.Era.latest) {
          // Server logs outside a request exist only in a handshake-era session.
          builder.eras(EraPreference.HANDSHAKE_FIRST);
        }
        c = target.connect(builder, verbose, err);
        client.set(c);
        if (logLevel != null) {
          c.setLoggingLevel(logLevel);
        }
        ServerCapabilities caps = c.serverCapabilities();
        SubscriptionFilter filter =
            new SubscriptionFilter(
                caps.toolsListChanged() ? Boolean.TRUE : null,
                caps.promptsListChanged() ? Boolean.TRUE : null,
                caps.resourcesListChanged() ? Boolean.TRUE : null,
                resources.isEmpty() ? null : List.copyOf(resources),
                null);
        if (!caps.toolsListChanged()
            && !caps.promptsListChanged()
            && !caps.resourcesListChanged()
            && resources.isEmpty()) {
          filter = null; // nothing the server announces: only logs, if asked for
        }
        if (filter != null) {
          c.listen(
              filter,
              new SubscriptionListener() {
                @Override
                public void listChanged(McpClient.Area area) {
                  print(out, area.name().toLowerCase(Locale.ROOT) + "/list_changed");
                }

                @Override
                public void resourceUpdated(ResourceUpdatedParams update) {
                  print(out, "resources/updated " + TerminalText.line(update.uri()));
                }
              });
        }
      } catch (RuntimeException e) {
        if (ctrlC.fired()) {
          return Errors.INTERRUPTED;
        }
        McpClient c0 = client.get();
        if (c0 != null) {
          c0.close();
        }
        err.println(
            "herald: cannot watch "
                + target.describe()
                + ": "
                + TerminalText.line(Errors.describe(e))
                + target.exitNote());
        return Errors.FAILED;
      }
      err.printf(
          "watching %s %s, protocol %s (%s era%s) (Ctrl-C to stop)%n",
          TerminalText.line(c.serverInfo().name()),
          TerminalText.line(c.serverInfo().version()),
          c.protocolVersion().wire(),
          EraOption.name(c),
          c.era() == ProtocolVersion.Era.MODERN ? ", subscriptions/listen" : "");
      err.flush();
      Throwable cause;
      try {
        cause = c.sessionClosed().get();
      } catch (ExecutionException e) {
        cause = e.getCause();
      }
      if (ctrlC.fired()) {
        return Errors.INTERRUPTED;
      }
      err.println(
          "herald: the server went away"
              + (cause == null ? "" : ": " + TerminalText.line(Errors.describe(cause)))
              + target.exitNote());
      c.close();
      return Errors.FAILED;
    }
  }

  private static void print(PrintStream out, String line) {
    out.println(LocalTime.now(ZoneId.systemDefault()).format(TIME) + " " + line);
    out.flush();
  }
}
