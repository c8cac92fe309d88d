package dev.herald.interop.jsdk22;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.ProgressParams;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpSyncSubscriptionListener;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The official Java SDK's 2026-07-28 client ({@code io.modelcontextprotocol.modern}, SDK 2.2.0)
 * for Herald's interop tests. {@code -- <server command...>} for stdio, or an {@code http://}
 * endpoint. Runs a fixed script against a server with the demo fixture's names (Herald's {@code
 * herald serve}, or {@link ModernServerMain}) and prints one JSON object with what it saw: each
 * step records its own failure so one missing feature does not hide the others.
 */
public final class ModernClientMain {
  private ModernClientMain() {}

  private static final Map<String, Object> SEEN = new LinkedHashMap<>();
  private static final List<String> ERRORS = new CopyOnWriteArrayList<>();

  private interface Step {
    void run() throws Exception;
  }

  private static void step(String name, Step step) {
    try {
      step.run();
    } catch (Throwable e) {
      ERRORS.add(name + ": " + e);
    }
  }

  private static String text(CallToolResult r) {
    StringBuilder b = new StringBuilder();
    r.content()
        .forEach(c -> {
          if (c instanceof TextContent t) {
            b.append(t.text());
          }
        });
    return b.toString();
  }

  private static SubscriptionEvent await(
      BlockingQueue<SubscriptionEvent> events, Predicate<SubscriptionEvent> wanted, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      SubscriptionEvent e = events.poll(50, TimeUnit.MILLISECONDS);
      if (e != null && wanted.test(e)) {
        return e;
      }
    }
    throw new IllegalStateException("timed out waiting until " + what);
  }

  public static void main(String[] args) throws Exception {
    McpClientTransport transport;
    if (args[0].equals("--")) {
      ServerParameters params =
          ServerParameters.builder(args[1])
              .args(Arrays.asList(args).subList(2, args.length))
              .build();
      transport =
          StdioMcpClientTransport.builder(params)
              .stderrConsumer(line -> System.err.println("[server] " + line))
              .start();
    } else {
      transport = HttpClientMcpTransport.builder(args[0]).build();
    }
    List<String> elicited = new CopyOnWriteArrayList<>();
    McpSyncClient client =
        McpClient.sync(transport)
            .clientInfo(McpSchema.Implementation.builder("jsdk22-interop-client", "2.2.0").build())
            .callTimeout(Duration.ofSeconds(30))
            .formElicitation(req -> {
              elicited.add(req.message());
              return ElicitResult.accept(
                  Map.of("username", "jsdk22-user", "email", "jsdk22@example.com"));
            })
            .build();
    SEEN.put("elicited", elicited);
    step(
        "discover",
        () -> {
          McpSchema.DiscoverResult d = client.discover();
          SEEN.put("supportedVersions", d.supportedVersions());
          SEEN.put("toolsListChanged", d.capabilities().tools() != null);
        });
    step(
        "list",
        () -> {
          SEEN.put(
              "tools",
              client.tools().list().tools().stream().map(McpSchema.Tool::name).sorted().toList());
          SEEN.put(
              "prompts",
              client.prompts().list().prompts().stream()
                  .map(McpSchema.Prompt::name)
                  .sorted()
                  .toList());
          SEEN.put(
              "resources",
              client.resources().list().resources().stream()
                  .map(McpSchema.Resource::uri)
                  .sorted()
                  .toList());
        });
    step(
        "echo",
        () ->
            SEEN.put(
                "echo",
                text(client.tool("echo").arguments(Map.of("text", "hello from jsdk22")).call())));
    step(
        "progress",
        () -> {
          List<Double> progress = new CopyOnWriteArrayList<>();
          List<Double> totals = new CopyOnWriteArrayList<>();
          CallToolResult r =
              client
                  .tool("slow")
                  .arguments(Map.of("steps", 5, "delayMs", 20))
                  .progress((ProgressParams p) -> {
                    progress.add(p.progress());
                    totals.add(p.total());
                  })
                  .call();
          SEEN.put("slow", text(r));
          SEEN.put("progress", new ArrayList<>(progress));
          SEEN.put("progressTotals", new ArrayList<>(totals));
        });
    step(
        "elicitation",
        () ->
            SEEN.put(
                "elicitation",
                text(
                    client
                        .tool("test_elicitation")
                        .arguments(Map.of("message", "who are you?"))
                        .call())));
    step(
        "prompt",
        () -> {
          McpSchema.Content c =
              client.prompt("test_simple_prompt").get().messages().get(0).content();
          SEEN.put("prompt", c instanceof TextContent t ? t.text() : String.valueOf(c));
        });
    step(
        "read",
        () -> {
          McpSchema.ResourceContents c = client.resource("demo://counter").read().contents().get(0);
          SEEN.put(
              "counterBefore",
              c instanceof McpSchema.TextResourceContents t ? t.text() : String.valueOf(c));
        });
    step(
        "listen",
        () -> {
          BlockingQueue<SubscriptionEvent> events = new LinkedBlockingQueue<>();
          List<String> kinds = new CopyOnWriteArrayList<>();
          McpSyncClient.Listening listening =
              client
                  .listen()
                  .toolsChanged()
                  .resourceUpdates("demo://counter")
                  .open(
                      new McpSyncSubscriptionListener() {
                        @Override
                        public void onEvent(SubscriptionEvent event) {
                          kinds.add(
                              event.getClass().getSimpleName()
                                  + (event instanceof SubscriptionEvent.ResourceUpdated u
                                      ? ":" + u.uri()
                                      : ""));
                          events.add(event);
                        }

                        @Override
                        public void onError(Throwable error) {
                          ERRORS.add("listen stream: " + error);
                        }
                      });
          try {
            SubscriptionEvent.Subscribed ack =
                (SubscriptionEvent.Subscribed)
                    await(
                        events,
                        e -> e instanceof SubscriptionEvent.Subscribed,
                        "the listen was acknowledged");
            SEEN.put("honoured", ack.honoured().fields());
            client.tool("touch").arguments(Map.of("area", "tools")).call();
            await(
                events,
                e -> e instanceof SubscriptionEvent.ToolsListChanged,
                "tools/list_changed arrived");
            client.tool("update_resource").arguments(Map.of("uri", "demo://counter")).call();
            await(
                events,
                e -> e instanceof SubscriptionEvent.ResourceUpdated,
                "resources/updated arrived");
          } finally {
            listening.close();
            SEEN.put("listenEvents", kinds);
          }
        });
    step(
        "timeout",
        () -> {
          try {
            client
                .tool("slow")
                .arguments(Map.of("steps", 200, "delayMs", 20))
                .callTimeout(Duration.ofMillis(300))
                .call();
            SEEN.put("timedOut", false);
          } catch (RuntimeException expected) {
            SEEN.put("timedOut", true);
          }
          SEEN.put(
              "afterTimeout",
              text(client.tool("echo").arguments(Map.of("text", "still here")).call()));
        });
    SEEN.put("errors", ERRORS);
    System.out.println(McpJsonDefaults.getMapper().writeValueAsString(SEEN));
    System.out.flush();
    if (transport instanceof AutoCloseable c) {
      step("close", c::close);
    }
    System.exit(0);
  }
}
