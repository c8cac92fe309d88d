package dev.herald.cli;

import dev.herald.cli.fixture.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code herald} command: the demo, a server for any MCP host, and a terminal MCP client. */
@Command(
    name = "herald",
    mixinStandardHelpOptions = true,
    version = "herald " + Version.VERSION,
    description = "Herald: a Model Context Protocol runtime for Java.",
    subcommands = {
      DemoCommand.class,
      ServeCommand.class,
      CallCommand.class,
      WatchCommand.class,
      ListCommand.class,
      TasksCommand.class,
      ConformanceClientCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Herald implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (for tests). */
  public static int run(String... args) {
    Logging.configure();
    return new CommandLine(new Herald())
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
}
