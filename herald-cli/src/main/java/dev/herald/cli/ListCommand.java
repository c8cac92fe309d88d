package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.client.TerminalText;
import dev.herald.wire.ServerCapabilities;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code herald list}: the server's tools, resources, resource templates and prompts, names and
 * descriptions aligned; only the areas the server declares. The header names the server, the
 * negotiated protocol version and its era ({@code modern}: 2026-07-28, {@code handshake}).
 */
@Command(
    name = "list",
    description = {
      "List the server's tools, resources, resource templates and prompts.",
      "  herald list -- <server command...>",
      "  herald list <http(s)://url>"
    },
    mixinStandardHelpOptions = true)
final class ListCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "ARG", description = "[url] [-- command...]")
  List<String> positionals = new ArrayList<>();

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
    PrintStream out = System.out;
    ServerTarget target = split.target();
    McpClient client;
    try {
      client = target.connect(era.apply(McpClient.builder()), verbose, System.err);
    } catch (RuntimeException e) {
      target.cannotConnect(e, System.err);
      return Errors.FAILED;
    }
    try (client) {
      ServerCapabilities caps = client.serverCapabilities();
      out.printf(
          "%s %s, protocol %s (%s era)%n",
          TerminalText.line(client.serverInfo().name()),
          TerminalText.line(client.serverInfo().version()),
          client.protocolVersion().wire(),
          EraOption.name(client));
      if (caps.tools() != null) {
        section(
            out,
            "Tools",
            client.tools().stream()
                .map(t -> Map.entry(TerminalText.line(t.name()), text(t.description())))
                .toList());
      }
      if (caps.resources() != null) {
        section(
            out,
            "Resources",
            client.resources().stream()
                .map(r ->
                    Map.entry(
                        TerminalText.line(r.uri()),
                        text(r.description() != null ? r.description() : r.name())))
                .toList());
        section(
            out,
            "Resource templates",
            client.resourceTemplates().stream()
                .map(t ->
                    Map.entry(
                        TerminalText.line(t.uriTemplate()),
                        text(t.description() != null ? t.description() : t.name())))
                .toList());
      }
      if (caps.prompts() != null) {
        section(
            out,
            "Prompts",
            client.prompts().stream()
                .map(p -> Map.entry(TerminalText.line(p.name()), text(p.description())))
                .toList());
      }
      out.flush();
      return 0;
    } catch (RuntimeException e) {
      System.err.println("herald: " + TerminalText.line(Errors.describe(e)) + target.exitNote());
      return Errors.exitCode(e);
    }
  }

  private static void section(PrintStream out, String title, List<Map.Entry<String, String>> rows) {
    out.println();
    out.println(title + " (" + rows.size() + ")");
    int width = rows.stream().mapToInt(e -> e.getKey().length()).max().orElse(0);
    for (Map.Entry<String, String> row : rows) {
      out.println(
          ("  " + row.getKey() + " ".repeat(width - row.getKey().length()) + "  " + row.getValue())
              .stripTrailing());
    }
  }

  /** The first line of a description, or nothing. */
  private static String text(@Nullable String description) {
    if (description == null) {
      return "";
    }
    String line = description.strip();
    int nl = line.indexOf('\n');
    return TerminalText.line(nl < 0 ? line : line.substring(0, nl).strip() + " …");
  }
}
