package dev.herald.cli;

import dev.herald.cli.fixture.Version;
import dev.herald.client.McpClient;
import dev.herald.client.TerminalText;
import dev.herald.transport.Transport;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.transport.stdio.SubprocessTransport;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The server a client command talks to: either everything after {@code --}, a command
 * line started as a subprocess and spoken to over stdio, or an {@code http(s)://} URL as the first
 * positional argument. {@link #split} separates the target from the command's own positional
 * arguments (tool name, {@code key=value} pairs); picocli keeps the arguments after {@code --} as
 * plain positionals, so the original command line tells where they begin.
 */
final class ServerTarget {
  private final List<String> command;
  private final @Nullable URI url;
  private @Nullable SubprocessTransport subprocess;

  private ServerTarget(List<String> command, @Nullable URI url) {
    this.command = List.copyOf(command);
    this.url = url;
  }

  /** The target and the positionals that remain for the command. */
  record Split(ServerTarget target, List<String> rest) {}

  /**
   * Splits a command's positionals into the target and the rest.
   *
   * @throws CommandLine.ParameterException (exit 2) when no target is named
   */
  static Split split(CommandSpec spec, List<String> positionals) {
    List<String> original = spec.commandLine().getParseResult().originalArgs();
    int dashes = original.indexOf("--");
    if (dashes >= 0) {
      int n = original.size() - dashes - 1;
      if (n == 0 || n > positionals.size()) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "give the server's command after --");
      }
      List<String> cmd = positionals.subList(positionals.size() - n, positionals.size());
      return new Split(
          new ServerTarget(cmd, null), List.copyOf(positionals.subList(0, positionals.size() - n)));
    }
    if (!positionals.isEmpty()) {
      String first = positionals.get(0);
      String lower = first.toLowerCase(Locale.ROOT);
      if (lower.startsWith("http://") || lower.startsWith("https://")) {
        try {
          return new Split(
              new ServerTarget(List.of(), new URI(first)),
              List.copyOf(positionals.subList(1, positionals.size())));
        } catch (URISyntaxException e) {
          throw new CommandLine.ParameterException(
              spec.commandLine(), "'" + first + "' is not a valid URL: " + e.getReason());
        }
      }
    }
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "name the server: an http(s):// URL first, or its command line after -- (e.g. -- npx my-server)");
  }

  /** The subprocess, when this target is a command line and it was started. */
  Optional<Process> process() {
    return Optional.ofNullable(subprocess).map(SubprocessTransport::process);
  }

  /** How the target reads in messages: the URL or the program's name. */
  String describe() {
    return url != null ? url.toString() : command.get(0);
  }

  /** The transport to the target; a stdio server's stderr reaches ours only with {@code verbose}. */
  Transport transport(boolean verbose, PrintStream err) {
    if (url != null) {
      return http(url);
    }
    Consumer<String> stderr =
        verbose ? line -> err.println("[server] " + TerminalText.line(line)) : line -> {};
    SubprocessTransport t = SubprocessTransport.builder(command).stderr(stderr).build();
    this.subprocess = t;
    return t;
  }

  /**
   * Connects a client to the target. Over HTTP the client gets a source of transports, so a
   * session the server loses is replaced by a new one, and a login the server asks for runs
   * before the client negotiates ({@link Login#authorizeFirst}).
   */
  McpClient connect(McpClient.Builder builder, boolean verbose, PrintStream err)
      throws InterruptedException {
    builder.info("herald-cli", Version.VERSION);
    if (url != null) {
      Login.authorizeFirst(url, LOGIN.get());
      return builder.connect(() -> http(url));
    }
    return builder.connect(transport(verbose, err));
  }

  /**
   * The Streamable HTTP client transport for {@code url}, authorizing with the server when it
   * asks ({@link Login}: kept tokens reused and refreshed, else a browser login).
   */
  static Transport http(URI url) {
    return StreamableHttpClientTransport.builder().uri(url).authorization(LOGIN.get()).build();
  }

  /** One authorization per run, made when a transport first needs it. */
  private static final java.util.function.Supplier<dev.herald.client.auth.OAuthClient> LOGIN =
      memoize(() -> Login.oauth(System.err));

  private static <T> java.util.function.Supplier<T> memoize(java.util.function.Supplier<T> s) {
    java.util.concurrent.atomic.AtomicReference<T> ref =
        new java.util.concurrent.atomic.AtomicReference<>();
    return () -> {
      T v = ref.get();
      if (v == null) {
        ref.compareAndSet(null, s.get());
        v = ref.get();
      }
      return java.util.Objects.requireNonNull(v);
    };
  }

  /** Tells the user that connecting to this target failed, and why (server text cleaned). */
  void cannotConnect(RuntimeException e, PrintStream err) {
    err.println(
        "herald: cannot connect to "
            + describe()
            + ": "
            + TerminalText.line(Errors.describe(e))
            + exitNote());
  }

  /** Exit code and a few words about the subprocess if it has ended, for "the server died" lines. */
  String exitNote() {
    Process p = process().orElse(null);
    if (p == null) {
      return "";
    }
    try {
      // its output ended, so it is on its way out; a busy machine may take a moment to reap it
      if (p.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
        return " (server exited with code " + p.exitValue() + ")";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "";
  }
}
