package dev.herald.cli;

import dev.herald.cli.fixture.Version;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code herald} command: the demo, a server for any MCP host, and a terminal MCP client. */
@Command(
    name = "herald",
    mixinStandardHelpOptions = true,
    version = "herald " + Version.VERSION,
    description = "Herald: a Model Context Protocol runtime for Java.")
public final class Herald implements Runnable {
  /**
   * The subcommands in the order {@code herald --help} lists them. Added by {@link #commandLine}
   * rather than named in {@code @Command}, so that a run of one subcommand builds only that
   * subcommand's model: picocli reflects over every registered command up front, which costs a
   * stdio server spawned on demand (or {@code herald call}) a good part of its start-up.
   */
  private static final List<String> SUBCOMMANDS =
      List.of(
          "demo",
          "serve",
          "call",
          "watch",
          "list",
          "tasks",
          "logout",
          "conformance-client",
          "help");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    Logging.configureOnFirstUse();
    System.exit(runConfigured(args));
  }

  /** Runs the command line and returns the exit code (for tests). */
  public static int run(String... args) {
    Logging.configure();
    return runConfigured(args);
  }

  private static int runConfigured(String... args) {
    ServeCommand stdio = ServeCommand.plainStdio(args);
    if (stdio != null) {
      // What a host spawns on demand: served without building the command-line model at all.
      initializeBigDecimalAside();
      try {
        return stdio.call();
      } catch (Exception ex) {
        System.err.println("herald: " + Errors.describe(ex));
        return Errors.exitCode(ex);
      }
    }
    return commandLine(args)
        .setExecutionExceptionHandler((ex, cmd, parsed) -> {
          cmd.getErr().println("herald: " + Errors.describe(ex));
          return Errors.exitCode(ex);
        })
        .setParameterExceptionHandler((ex, badArgs) -> {
          // one line, then where to read more: a usage error, exit 2
          CommandLine cmd = ex.getCommandLine();
          cmd.getErr()
              .println(
                  "herald: "
                      + ex.getMessage()
                      + " (see '"
                      + cmd.getCommandSpec().qualifiedName()
                      + " --help')");
          return Errors.USAGE;
        })
        .execute(args);
  }

  /**
   * Initialises {@link java.math.BigDecimal} on a daemon thread of its own, beside the main thread's
   * construction of the server. Every Jackson value node needs it (the tool schemas of the demo
   * catalog, the first request read), and on JDK 25 its static initialiser computes a table of
   * large powers of five by repeated squaring: 20 to 45 ms of a cold process, which otherwise
   * stand between a stdio server's start and its {@code initialize} answer. Only a JDK class is
   * initialised there, whose initialiser needs no class of Herald's or Jackson's, so the two
   * threads cannot wait on each other; a thread that needs it first simply waits for it.
   */
  private static void initializeBigDecimalAside() {
    Thread.ofPlatform()
        .daemon()
        .name("herald-init-bigdecimal")
        .start(() -> java.math.BigDecimal.ONE.signum());
  }

  /**
   * The command line for {@code args}: with only the subcommand named by the first argument when it
   * names one exactly (parsing, help and errors of that subcommand are the same either way), with
   * all of them otherwise (top-level help, {@code herald help NAME}, a misspelt name and its
   * suggestions).
   */
  static CommandLine commandLine(String... args) {
    CommandLine cl = new CommandLine(new Herald());
    // "help" shows the others, so it needs them all
    if (args.length > 0 && !args[0].equals("help") && SUBCOMMANDS.contains(args[0])) {
      cl.addSubcommand(subcommand(args[0]));
    } else {
      for (String name : SUBCOMMANDS) {
        cl.addSubcommand(subcommand(name));
      }
    }
    CommandLine tasks = cl.getSubcommands().get("tasks");
    if (tasks != null) {
      // A task id is the server's to choose and may begin with '-' (URL-safe base64 does): an
      // argument that is none of the options is the id, not an unknown option.
      for (String name : new String[] {"get", "cancel"}) {
        tasks.getSubcommands().get(name).setUnmatchedOptionsArePositionalParams(true);
      }
    }
    return cl;
  }

  private static Class<?> subcommand(String name) {
    return switch (name) {
      case "demo" -> DemoCommand.class;
      case "serve" -> ServeCommand.class;
      case "call" -> CallCommand.class;
      case "watch" -> WatchCommand.class;
      case "list" -> ListCommand.class;
      case "tasks" -> TasksCommand.class;
      case "logout" -> LogoutCommand.class;
      case "conformance-client" -> ConformanceClientCommand.class;
      case "help" -> CommandLine.HelpCommand.class;
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }
}
