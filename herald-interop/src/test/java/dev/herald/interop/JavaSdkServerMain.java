package dev.herald.interop;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ListRootsResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourcesUpdatedNotification;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A server built with the official MCP Java SDK (2.1.0) over its {@link StdioServerTransportProvider},
 * run as a subprocess by {@link JavaSdkServerIT}, or with {@code --http} over its Streamable HTTP
 * servlet in Jetty, run by {@link JavaSdkHttpServerIT}. Its tools mirror interop/ts/server.mjs: progress,
 * logs, list changes, resource updates and the three reverse calls. Written against the SDK's
 * public API only; stdout carries nothing but JSON-RPC, or the port line (SLF4J is bound to slf4j-nop).
 */
public final class JavaSdkServerMain {
  static final String COUNTER_URI = "demo://counter";

  private JavaSdkServerMain() {}

  public static void main(String[] args) throws Exception {
    // Ends the process when the parent closes our stdin (the SDK's stdio transport only stops
    // reading).
    CountDownLatch eof = new CountDownLatch(1);
    InputStream in =
        new FilterInputStream(System.in) {
          @Override
          public int read() throws IOException {
            return ended(super.read());
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            return ended(super.read(b, off, len));
          }

          private int ended(int n) {
            if (n < 0) {
              eof.countDown();
            }
            return n;
          }
        };
    if (args.length > 0 && args[0].equals("--http")) {
      http(in, eof);
      return;
    }
    var transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(), in, System.out);
    McpSyncServer[] self = new McpSyncServer[1];
    self[0] = configure(McpServer.sync(transport), self).build();
    eof.await();
    self[0].close();
    System.exit(0);
  }

  /**
   * {@code --http}: the same server over the SDK's Streamable HTTP servlet
   * ({@link HttpServletStreamableServerTransportProvider}) in Jetty 12 (ee10) on 127.0.0.1 and a free
   * port, printed as {@code PORT <n>} on stdout (then only {@code STANDING} lines, see below);
   * {@code /mcp} is the endpoint. Ends when stdin closes.
   */
  private static void http(InputStream in, CountDownLatch eof) throws Exception {
    var transport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(McpJsonDefaults.getMapper())
            .mcpEndpoint("/mcp")
            .build();
    McpSyncServer[] self = new McpSyncServer[1];
    self[0] = configure(McpServer.sync(transport), self).build();

    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder holder = new ServletHolder(transport);
    holder.setAsyncSupported(true); // the SDK answers on SSE through AsyncContext
    context.addServlet(holder, "/mcp");
    // Test instrumentation, outside the SDK: a line on stdout once the servlet has taken a GET
    // (its standing stream) and returned with the stream held open, so a test can wait for it
    // before making the server broadcast (the SDK drops a broadcast for a session without one).
    context.addFilter(
        new FilterHolder(
            (Filter)
                (request, response, chain) -> {
                  chain.doFilter(request, response);
                  if (request instanceof HttpServletRequest http
                      && http.getMethod().equals("GET")
                      && request.isAsyncStarted()) {
                    System.out.println(
                        "STANDING "
                            + http.getHeader("Mcp-Session-Id")
                            + " committed="
                            + response.isCommitted());
                    System.out.flush();
                  }
                }),
        "/mcp",
        EnumSet.of(DispatcherType.REQUEST));
    jetty.setHandler(context);
    jetty.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();

    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            in.transferTo(OutputStream.nullOutputStream());
          } catch (IOException e) {
            // treated as the end below
          }
          eof.countDown();
        });
    eof.await();
    self[0].close();
    jetty.stop();
    System.exit(0);
  }

  /** The tools and the counter resource, on either transport's builder. */
  private static McpServer.SyncSpecification<?> configure(
      McpServer.SyncSpecification<?> spec, McpSyncServer[] self) {
    AtomicLong counter = new AtomicLong();
    AtomicInteger dummies = new AtomicInteger();

    var resource =
        new SyncResourceSpecification(
            Resource.builder(COUNTER_URI, "counter")
                .description("A counter that update_resource increments")
                .mimeType("text/plain")
                .build(),
            (ex, req) ->
                new ReadResourceResult(
                    List.of(
                        new TextResourceContents(
                            req.uri(), "text/plain", Long.toString(counter.get())))));

    return spec.serverInfo("java-sdk-peer", "2.1.0")
        .capabilities(
            ServerCapabilities.builder().tools(true).resources(true, true).logging().build())
        .tools(
            tool(
                "echo",
                props("text", "string"),
                (ex, req) -> text((String) req.arguments().get("text"))),
            tool("slow", props("steps", "integer", "delayMs", "integer"), JavaSdkServerMain::slow),
            tool(
                "emit_logs",
                props("count", "integer", "level", "string"),
                JavaSdkServerMain::emitLogs),
            tool(
                "touch",
                props(),
                (ex, req) -> {
                  String name = "dummy_" + dummies.incrementAndGet();
                  // addTool sends notifications/tools/list_changed itself (tools capability has
                  // listChanged)
                  self[0].addTool(tool(name, props(), (e, r) -> text("dummy")));
                  return text("touched tools");
                }),
            tool(
                "update_resource",
                props(),
                (ex, req) -> {
                  long now = counter.incrementAndGet();
                  self[0].notifyResourcesUpdated(new ResourcesUpdatedNotification(COUNTER_URI));
                  return text("counter is " + now);
                }),
            tool(
                "ask_sampling",
                props(),
                (ex, req) -> {
                  CreateMessageResult r =
                      ex.createMessage(
                          CreateMessageRequest.builder(
                                  List.of(
                                      new SamplingMessage(Role.USER, new TextContent("hello?"))),
                                  10)
                              .build());
                  return text("model said: " + ((TextContent) r.content()).text());
                }),
            tool(
                "ask_elicitation",
                props(),
                (ex, req) -> {
                  Map<String, Object> schema =
                      Map.of(
                          "type",
                          "object",
                          "properties",
                          Map.of(
                              "name",
                              Map.of("type", "string"),
                              "color",
                              Map.of("type", "string", "default", "blue")),
                          "required",
                          List.of("name"));
                  ElicitResult r =
                      ex.createElicitation(ElicitRequest.builder("Your name?", schema).build());
                  return text(
                      r.action().name().toLowerCase()
                          + ": "
                          + new TreeMap<>(r.content() == null ? Map.of() : r.content()));
                }),
            tool(
                "ask_roots",
                props(),
                (ex, req) -> {
                  ListRootsResult r = ex.listRoots();
                  return text(r.roots().stream().map(Root::uri).collect(Collectors.joining(",")));
                }))
        .resources(resource);
  }

  private static CallToolResult slow(McpSyncServerExchange ex, CallToolRequest req) {
    int steps = intArg(req, "steps", 10);
    int delay = intArg(req, "delayMs", 100);
    Object token = req.progressToken();
    for (int i = 1; i <= steps; i++) {
      sleep(delay);
      // The SDK gives a handler no way to see a cancellation, so this loop always runs to the end.
      if (token != null) {
        ex.progressNotification(
            ProgressNotification.builder(token, i)
                .total((double) steps)
                .message("step " + i + " of " + steps)
                .build());
      }
    }
    return text("completed " + steps + " steps");
  }

  private static CallToolResult emitLogs(McpSyncServerExchange ex, CallToolRequest req) {
    int count = intArg(req, "count", 3);
    Object levelArg = req.arguments().get("level");
    LoggingLevel level =
        LoggingLevel.valueOf((levelArg == null ? "info" : levelArg.toString()).toUpperCase());
    for (int i = 1; i <= count; i++) {
      // filtered by the SDK against the session's level (logging/setLevel)
      ex.loggingNotification(
          LoggingMessageNotification.builder(level, "log message " + i + " of " + count)
              .logger("java-sdk")
              .build());
    }
    return text("sent " + count);
  }

  // ---------------------------------------------------------------- helpers

  private static SyncToolSpecification tool(
      String name,
      Map<String, Object> properties,
      BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
    Map<String, Object> schema = Map.of("type", "object", "properties", properties);
    return SyncToolSpecification.builder()
        .tool(Tool.builder(name).description(name).inputSchema(schema).build())
        .callHandler(handler)
        .build();
  }

  private static Map<String, Object> props(String... nameType) {
    Map<String, Object> p = new LinkedHashMap<>();
    for (int i = 0; i < nameType.length; i += 2) {
      p.put(nameType[i], Map.of("type", nameType[i + 1]));
    }
    return p;
  }

  private static CallToolResult text(String s) {
    return CallToolResult.builder().addTextContent(s).build();
  }

  private static int intArg(CallToolRequest req, String name, int fallback) {
    Object v = req.arguments() == null ? null : req.arguments().get(name);
    return v instanceof Number n ? n.intValue() : fallback;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
