package dev.herald.cli;

import dev.herald.cli.fixture.DemoFixture;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code herald serve}: the demo fixture for any MCP host. */
@Command(name = "serve", description = "Serve the demo fixture (shared/FIXTURE.md) to any MCP host.", mixinStandardHelpOptions = true)
final class ServeCommand implements Callable<Integer> {
  @Option(names = "--stdio", description = "Serve over stdin/stdout (the default until the HTTP transport lands).")
  boolean stdio = true;

  @Override
  public Integer call() throws Exception {
    DemoFixture.server().serveStdio();
    return 0;
  }
}
