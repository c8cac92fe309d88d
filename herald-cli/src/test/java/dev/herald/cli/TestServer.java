package dev.herald.cli;

import dev.herald.server.McpServer;
import dev.herald.server.ResourceHandler;
import dev.herald.session.EventListener;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.RequestId;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only stdio server for the CLI's end-to-end tests. Stdio servers are per-process, so
 * {@code herald watch} cannot be driven by a second client; instead this server, every 300 ms,
 * sends a log, marks {@code test://ticker} updated, and changes its tools, resources and prompts.
 * Its {@code spin} tool reports progress without a total until cancelled and then writes the
 * cancellation's reason to the file named by {@code -Dtest.cancelled.file}: proof that the
 * cancellation arrived on the wire. Its {@code die} tool halts the process mid-call, and {@code
 * -Dtest.exit.after.ms} halts it that long after the first {@code subscriptions/listen}
 * arrived: a server that goes away while watched.
 */
public final class TestServer {
  static final String TICKER = "test://ticker";

  private TestServer() {}

  public static void main(String[] args) throws Exception {
    String cancelledFile = System.getProperty("test.cancelled.file");
    McpServer.Builder b = McpServer.builder().info("test-server", "1");
    b.resource(
        Resource.of(TICKER, "ticker", "text/plain"),
        ResourceHandler.text("text/plain", () -> "tick"));
    b.prompt(
        Prompt.of("greet", "Says hello.", List.of()),
        get -> GetPromptResult.of(null, List.of(PromptMessage.user("hello"))));
    b.tool(
        Tool.builder("spin")
            .description("Reports progress without a total until cancelled.")
            .build(),
        call -> {
          for (long i = 1; ; i++) {
            try {
              Thread.sleep(100);
              call.context().cancellation().throwIfCancelled();
            } catch (InterruptedException | RuntimeException e) {
              if (cancelledFile != null) {
                String reason = call.context().cancellation().reason();
                Files.writeString(
                    Path.of(cancelledFile), String.valueOf(reason), StandardCharsets.UTF_8);
              }
              throw e;
            }
            call.context().progress().report(i, null, "turn " + i);
          }
        });
    b.tool(
        Tool.builder("die")
            .description("Reports progress once, then the process halts with code 3.")
            .build(),
        call -> {
          call.context().progress().report(1, 10.0, "about to die");
          Thread.sleep(300);
          Runtime.getRuntime().halt(3);
          return CallToolResult.text("unreachable");
        });
    long exitAfter = Long.getLong("test.exit.after.ms", 0);
    if (exitAfter > 0) {
      // counted from the first subscriptions/listen, not from the start: a client still connecting
      // on a busy machine would otherwise see a server that never answered, not one that went away
      AtomicBoolean counting = new AtomicBoolean();
      EventListener haltLater =
          new EventListener() {
            @Override
            public void requestStarted(String method, RequestId id) {
              if (method.equals(McpMethods.SUBSCRIPTIONS_LISTEN)
                  && counting.compareAndSet(false, true)) {
                Thread.ofPlatform()
                    .daemon()
                    .start(() -> {
                      try {
                        Thread.sleep(exitAfter);
                      } catch (InterruptedException e) {
                        return;
                      }
                      Runtime.getRuntime().halt(4);
                    });
              }
            }
          };
      b.eventListenerFactory(role -> haltLater);
    }
    McpServer server = b.build();
    if (Boolean.getBoolean("test.ticker")) {
      AtomicInteger n = new AtomicInteger();
      Thread.ofPlatform()
          .daemon()
          .name("ticker")
          .start(() -> {
            while (true) {
              try {
                Thread.sleep(Duration.ofMillis(300));
              } catch (InterruptedException e) {
                return;
              }
              int i = n.incrementAndGet();
              server.log(LoggingLevel.INFO, "ticker", "tick " + i);
              server.notifyResourceUpdated(TICKER);
              server.addTool(
                  Tool.builder("dummy_" + i).description("added by the ticker").build(),
                  c -> CallToolResult.text("dummy"));
              server
                  .resources()
                  .add(
                      Resource.of("test://dummy/" + i, "dummy", "text/plain"),
                      ResourceHandler.text("text/plain", () -> "d"));
              server
                  .prompts()
                  .add(
                      Prompt.of("dummy_" + i, "added by the ticker", List.of()),
                      get -> GetPromptResult.of(null, List.of(PromptMessage.user("d"))));
            }
          });
    }
    server.serveStdio();
  }
}
