package dev.herald.interop.jsdk22;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolRequest;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.SubscriptionFilter;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.server.InputResponses;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpChangeFeed;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The official Java SDK's 2026-07-28 server ({@code io.modelcontextprotocol.modern}, SDK 2.2.0) for
 * Herald's interop tests: stdio by default, or its servlet transport on 127.0.0.1 with {@code
 * --http PORT} (0 picks a free port, printed to stderr as {@code listening on PORT}; closing stdin
 * stops it). Its catalog uses names from Herald's demo fixture so one client script drives either
 * server: {@code echo}, {@code slow} (progress), {@code test_elicitation} (an input_required round
 * trip), {@code touch} (a tools list change), {@code update_resource} with {@code demo://counter}
 * (a resource update), the prompt {@code test_simple_prompt}.
 */
public final class ModernServerMain {
  private ModernServerMain() {}

  private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
  private static final McpChangeFeed CHANGES = new McpChangeFeed();
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final Map<String, McpSyncTool> TOOLS = new ConcurrentSkipListMap<>();

  /** A change this server publishes to the listen streams whose filter asks for it. */
  private record Change(String method, Object params, boolean toolsList, String uri)
      implements ServerChange {
    @Override
    public boolean isHonouredBy(SubscriptionFilter filter) {
      return toolsList
          ? filter.wantsToolsListChanged()
          : filter.resourceSubscriptionsOrEmpty().contains(uri);
    }
  }

  private static Map<String, Object> schema(Map<String, Object> properties, String... required) {
    return Map.of("type", "object", "properties", properties, "required", List.of(required));
  }

  private static McpSyncResponse<CallToolOutcome> text(String text) {
    return McpSyncResponse.result(
        CallToolResult.builder().addContent(TextContent.builder(text).build()).build());
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int intArg(CallToolRequest req, String name, int fallback) {
    Object v = req.arguments() == null ? null : req.arguments().get(name);
    return v instanceof Number n ? n.intValue() : fallback;
  }

  private static void tool(
      String name,
      String description,
      Map<String, Object> inputSchema,
      McpSyncTool.Handler handler) {
    TOOLS.put(
        name,
        McpSyncTool.of(
            McpSchema.Tool.builder(name, inputSchema).description(description).build(), handler));
  }

  private static void registerTools() {
    tool(
        "echo",
        "Returns the text",
        schema(Map.of("text", Map.of("type", "string")), "text"),
        (ctx, req) -> text(String.valueOf(req.arguments().get("text"))));
    tool(
        "slow",
        "Steps with progress",
        schema(Map.of("steps", Map.of("type", "integer"), "delayMs", Map.of("type", "integer"))),
        (ctx, req) -> {
          int steps = intArg(req, "steps", 10);
          int delayMs = intArg(req, "delayMs", 100);
          return McpSyncResponse.streaming(notifier -> {
            for (int i = 1; i <= steps; i++) {
              try {
                Thread.sleep(delayMs);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("cancelled", e);
              }
              notifier.progress(i, (double) steps, "step " + i + " of " + steps);
            }
            return CallToolResult.builder()
                .addContent(TextContent.builder("completed " + steps + " steps").build())
                .build();
          });
        });
    Map<String, Object> who =
        schema(
            Map.of("username", Map.of("type", "string"), "email", Map.of("type", "string")),
            "username");
    tool(
        "test_elicitation",
        "Asks the client who it is (input_required)",
        schema(Map.of("message", Map.of("type", "string")), "message"),
        (ctx, req) -> {
          ElicitResult answer =
              req.inputResponses() == null
                  ? null
                  : InputResponses.get(req.inputResponses(), "user", ElicitResult.class, JSON);
          if (answer == null) {
            String message = String.valueOf(req.arguments().get("message"));
            return McpSyncResponse.result(
                McpSchema.InputRequiredResult.builder()
                    .elicit("user", ElicitFormRequest.builder(message, who).build())
                    .build());
          }
          return text(
              "User response: action="
                  + answer.action().name().toLowerCase(java.util.Locale.ROOT)
                  + ", content="
                  + json(answer.content()));
        });
    tool(
        "touch",
        "Adds a dummy tool so tools/list_changed goes out",
        schema(Map.of("area", Map.of("type", "string", "enum", List.of("tools")))),
        (ctx, req) -> {
          String dummy =
              "dummy_" + TOOLS.keySet().stream().filter(n -> n.startsWith("dummy_")).count();
          tool(dummy, "dummy", schema(Map.of()), (c, r) -> text("dummy"));
          CHANGES.broadcast(new Change("notifications/tools/list_changed", Map.of(), true, ""));
          return text("touched tools");
        });
    tool(
        "update_resource",
        "Increments demo://counter",
        schema(Map.of("uri", Map.of("type", "string"))),
        (ctx, req) -> {
          int now = COUNTER.incrementAndGet();
          CHANGES.broadcast(
              new Change(
                  "notifications/resources/updated",
                  Map.of("uri", "demo://counter"),
                  false,
                  "demo://counter"));
          return text("counter is " + now);
        });
  }

  static McpServer server() {
    registerTools();
    McpSyncToolRepository tools =
        new McpSyncToolRepository() {
          @Override
          public ToolsPage list(McpRequestContext ctx, String cursor) {
            List<McpSchema.Tool> all = new ArrayList<>();
            TOOLS.values().forEach(t -> all.add(t.definition()));
            return ToolsPage.of(all);
          }

          @Override
          public McpSyncTool find(McpRequestContext ctx, String name) {
            return TOOLS.get(name);
          }
        };
    McpSyncResourceRepository resources =
        new McpSyncResourceRepository() {
          @Override
          public ResourcesPage list(McpRequestContext ctx, String cursor) {
            return ResourcesPage.of(
                List.of(
                    McpSchema.Resource.builder("demo://counter", "counter")
                        .description("A counter")
                        .mimeType("text/plain")
                        .build()));
          }

          @Override
          public McpSyncResource find(McpRequestContext ctx, String uri) {
            if (!"demo://counter".equals(uri)) {
              return null;
            }
            return McpSyncResource.of((c, req) ->
                McpSyncResponse.result(
                    McpSchema.ReadResourceResult.builder(
                            List.of(
                                McpSchema.TextResourceContents.builder(
                                        uri, String.valueOf(COUNTER.get()))
                                    .mimeType("text/plain")
                                    .build()))
                        .build()));
          }

          @Override
          public boolean supportsSubscribe() {
            return true;
          }
        };
    McpSyncPrompt simple =
        McpSyncPrompt.of(
            McpSchema.Prompt.builder("test_simple_prompt").description("A simple prompt").build(),
            (ctx, req) ->
                McpSyncResponse.result(
                    McpSchema.GetPromptResult.builder(
                            List.of(
                                McpSchema.PromptMessage.builder(
                                        McpSchema.Role.USER,
                                        TextContent.builder("This is a simple prompt for testing.")
                                            .build())
                                    .build()))
                        .build()));
    McpSyncPromptRepository prompts =
        new McpSyncPromptRepository() {
          @Override
          public PromptsPage list(McpRequestContext ctx, String cursor) {
            return PromptsPage.of(List.of(simple.definition()));
          }

          @Override
          public McpSyncPrompt find(McpRequestContext ctx, String name) {
            return "test_simple_prompt".equals(name) ? simple : null;
          }
        };
    return McpServer.builder()
        .serverInfo(McpSchema.Implementation.builder("jsdk22-peer", "2.2.0").build())
        .feature(ToolsFeature.ofSync(tools))
        .feature(ResourcesFeature.ofSync(resources))
        .feature(PromptsFeature.ofSync(prompts))
        .subscriptions(CHANGES)
        .build();
  }

  public static void main(String[] args) throws Exception {
    McpServer server = server();
    if (args.length >= 1 && args[0].equals("--http")) {
      int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
      Server jetty = new Server();
      ServerConnector connector = new ServerConnector(jetty);
      connector.setHost("127.0.0.1");
      connector.setPort(port);
      jetty.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler();
      ServletHolder holder =
          new ServletHolder(HttpServletMcpTransport.builder(server).endpoint("/mcp").build());
      holder.setAsyncSupported(true);
      context.addServlet(holder, "/mcp");
      jetty.setHandler(context);
      jetty.start();
      System.err.println("listening on " + connector.getLocalPort());
      while (System.in.read() >= 0) {
        // closing stdin is the cue to stop
      }
      jetty.stop();
      System.exit(0);
    }
    new StdioMcpTransport(server, JSON).start().block();
    new CountDownLatch(1).await();
  }
}
