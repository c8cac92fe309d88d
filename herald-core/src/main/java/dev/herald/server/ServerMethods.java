package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressReporter;
import dev.herald.session.CancellationToken;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.Root;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SetLevelParams;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's method table for one session: lifecycle first, then each feature's methods.
 * Runs on the request's virtual thread. Every request, whatever its method, reaches this table
 * through the same engine path ({@code SessionEngine.onRequest}), so cancellation, progress-token
 * scoping and in-flight limits apply to all of them alike.
 */
final class ServerMethods {
  private final McpServer server;
  private final ServerSession session;
  private final ServerFeatures features;

  ServerMethods(McpServer server, ServerSession session) {
    this.server = server;
    this.session = session;
    this.features = new ServerFeatures(server, session);
  }

  JsonNode handle(InboundCall call) {
    String method = call.method();
    if (McpMethods.PING.equals(method)) {
      return McpJson.object();
    }
    if (McpMethods.INITIALIZE.equals(method)) {
      return initialize(call);
    }
    if (session.state() == ServerSession.State.NEW) {
      throw new McpException(ErrorCodes.INVALID_REQUEST, "Invalid request: the session is not initialized; send initialize first");
    }
    return switch (method) {
      case McpMethods.TOOLS_LIST -> listTools(call);
      case McpMethods.TOOLS_CALL -> callTool(call);
      case McpMethods.LOGGING_SET_LEVEL -> setLevel(call);
      case McpMethods.RESOURCES_LIST, McpMethods.RESOURCES_TEMPLATES_LIST, McpMethods.RESOURCES_READ,
          McpMethods.RESOURCES_SUBSCRIBE, McpMethods.RESOURCES_UNSUBSCRIBE, McpMethods.PROMPTS_LIST,
          McpMethods.PROMPTS_GET, McpMethods.COMPLETION_COMPLETE -> features.handle(call, new Context(call));
      default -> throw McpException.methodNotFound(method);
    };
  }

  private JsonNode initialize(InboundCall call) {
    InitializeParams p = McpJson.fromTree(call.params(), InitializeParams.class);
    ProtocolVersion requested = ProtocolVersion.parse(p.protocolVersion()).orElse(null);
    ProtocolVersion chosen = requested != null && requested.handshake() ? requested : ProtocolVersion.LATEST_LEGACY;
    ClientCapabilities caps = p.capabilities();
    ServerCapabilities declared = server.capabilities();
    if (!session.beginInitialize(p.clientInfo(), caps, chosen, declared)) {
      throw new McpException(ErrorCodes.INVALID_REQUEST, "Invalid request: initialize was already received on this session");
    }
    return McpJson.toTree(new InitializeResult(chosen.wire(), declared, server.info, server.instructions, null));
  }

  /** One page of the tools this session sees (the server's with its overlay on top). */
  private JsonNode listTools(InboundCall call) {
    String cursor = McpJson.fromTree(call.params(), dev.herald.wire.PaginatedParams.class).cursor();
    Pagination.Page<dev.herald.wire.Tool> page = server.pagination.page(call.method(), session.tools(), cursor);
    return McpJson.toTree(new ListToolsResult(page.items(), page.nextCursor(), null));
  }

  private JsonNode setLevel(InboundCall call) {
    SetLevelParams p = McpJson.fromTree(call.params(), SetLevelParams.class);
    LoggingLevel level = LoggingLevel.parse(p.level() == null ? "" : p.level())
        .orElseThrow(() -> McpException.invalidParams("Invalid params: unknown logging level '" + p.level()
            + "'; expected one of debug, info, notice, warning, error, critical, alert, emergency"));
    session.logLevel(level);
    return McpJson.object();
  }

  private JsonNode callTool(InboundCall call) {
    CallToolParams p = McpJson.fromTree(call.params(), CallToolParams.class);
    RegisteredTool tool = session.findTool(p.name());
    if (tool == null) {
      throw McpException.invalidParams("Unknown tool: " + p.name());
    }
    ObjectNode args = p.arguments() == null ? McpJson.object() : p.arguments();
    var invalid = tool.input().check(args);
    if (invalid.isPresent()) {
      return McpJson.toTree(CallToolResult.error("Invalid arguments for tool " + p.name() + ": " + invalid.get()));
    }
    ToolCall toolCall = new ToolCall(p.name(), args, new Context(call));
    CallToolResult result;
    try {
      result = tool.handler().call(toolCall);
    } catch (McpException | CancelledException e) {
      throw e;
    } catch (InterruptedException e) {
      if (call.cancellation().isCancelled()) {
        throw new CancelledException(String.valueOf(call.cancellation().reason()));
      }
      Thread.currentThread().interrupt();
      result = CallToolResult.error("Tool " + p.name() + " was interrupted");
    } catch (Exception e) {
      if (call.cancellation().isCancelled()) {
        throw new CancelledException(String.valueOf(call.cancellation().reason()));
      }
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      result = CallToolResult.error(LogData.clean(message));
    }
    if (result == null) {
      result = CallToolResult.of(List.of());
    }
    return McpJson.toTree(checkOutput(p.name(), tool, result));
  }

  /** A successful result of a tool with an output schema must carry conforming structuredContent. */
  private static CallToolResult checkOutput(String name, RegisteredTool tool, CallToolResult result) {
    ToolSchema out = tool.output();
    if (out == null || result.failed()) {
      return result;
    }
    if (result.structuredContent() == null) {
      return CallToolResult.error("Tool " + name + " produced invalid output: its outputSchema requires structuredContent, and there was none");
    }
    return out.check(result.structuredContent())
        .map(why -> CallToolResult.error("Tool " + name + " produced invalid output: " + why))
        .orElse(result);
  }

  /** The request context a handler sees. */
  private final class Context implements RequestContext {
    private final InboundCall call;

    Context(InboundCall call) {
      this.call = call;
    }

    @Override
    public boolean pollStream() {
      return call.pollStream();
    }

    @Override
    public RequestId requestId() {
      return call.id();
    }

    @Override
    public @Nullable ObjectNode meta() {
      return call.meta();
    }

    @Override
    public ProgressReporter progress() {
      return call.progress();
    }

    @Override
    public CancellationToken cancellation() {
      return call.cancellation();
    }

    @Override
    public ServerSession session() {
      return session;
    }

    @Override
    public void log(LoggingLevel level, @Nullable String logger, Object data) {
      if (call.cancellation().isCancelled()) {
        return; // a cancelled request sends nothing more
      }
      session.log(level, logger, data, call.running() ? call.id() : null);
    }

    @Override
    public CreateMessageResult sample(CreateMessageParams params, CallOptions options) throws InterruptedException {
      return ReverseCalls.sample(session, call, params, options);
    }

    @Override
    public ElicitResult elicit(ElicitParams params, CallOptions options) throws InterruptedException {
      return ReverseCalls.elicit(session, call, params, options);
    }

    @Override
    public List<Root> listRoots() throws InterruptedException {
      return ReverseCalls.listRoots(session, call, CallOptions.defaults());
    }
  }
}
