package dev.herald.cli;

import dev.herald.transport.Transport;
import dev.herald.transport.http.McpHeaders;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.Implementation;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import dev.herald.wire.Tool;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance suite's 2026-07-28 client scenarios ({@code request-metadata}, {@code
 * http-standard-headers}, {@code http-custom-headers}, {@code http-invalid-tool-headers}, {@code
 * json-schema-ref-no-deref}, {@code json-schema-2020-12-preservation}, {@code
 * sep-2322-client-request-state}), acted out over {@link StreamableHttpClientTransport} in its
 * 2026-07-28 binding.
 *
 * <p>Design note. The requests are made by {@link Session}, a minimal stateless client on the
 * transport: per-request {@code _meta} ({@link RequestMeta#toMeta()}), a retry with a version the
 * server names in -32022, tools with invalid {@code x-mcp-header} dropped ({@link
 * McpHeaders#validToolHeaders}), and MRTR rounds (fulfil {@code inputRequests}, retry with a new
 * id, echo {@code requestState}). It stands in for {@code McpClient}'s own 2026-07-28 support,
 * which these scenarios should move to once the client negotiates the era.
 */
final class ModernScenarios {
  /** The scenarios handled here. */
  static final Set<String> NAMES =
      Set.of(
          "request-metadata",
          "http-standard-headers",
          "http-custom-headers",
          "http-invalid-tool-headers",
          "json-schema-ref-no-deref",
          "json-schema-2020-12-preservation",
          "sep-2322-client-request-state");

  private ModernScenarios() {}

  /** Acts out {@code scenario} against the mock server at {@code url}. */
  static void run(String scenario, URI url, Implementation info, PrintStream out) throws Exception {
    try (Session s = new Session(url, info)) {
      switch (scenario) {
        case "request-metadata" -> {
          s.request("server/discover", McpJson.object());
          s.request("tools/list", McpJson.object());
        }
        case "http-standard-headers" -> {
          s.request("server/discover", McpJson.object());
          for (Tool t : s.tools()) {
            s.callTool(t.name(), McpJson.object());
          }
          for (JsonNode r : s.request("resources/list", McpJson.object()).path("resources")) {
            s.request("resources/read", McpJson.object().put("uri", r.path("uri").asString()));
          }
          for (JsonNode p : s.request("prompts/list", McpJson.object()).path("prompts")) {
            s.request("prompts/get", McpJson.object().put("name", p.path("name").asString()));
          }
        }
        case "http-custom-headers" -> {
          s.tools();
          JsonNode context = context();
          for (JsonNode call : context.path("toolCalls")) {
            ObjectNode args = call.get("arguments") instanceof ObjectNode a ? a : McpJson.object();
            s.callTool(call.path("name").asString(), args);
          }
        }
        case "http-invalid-tool-headers" -> {
          for (Tool t : s.tools()) {
            s.callTool(t.name(), placeholders(t.inputSchema()));
          }
        }
        case "json-schema-ref-no-deref" -> {
          s.request("server/discover", McpJson.object());
          s.tools();
        }
        case "json-schema-2020-12-preservation" -> {
          List<Tool> tools = s.tools();
          Tool focal =
              tools.stream()
                  .filter(t -> t.name().equals("json_schema_2020_12_tool"))
                  .findFirst()
                  .orElseThrow(
                      () -> new IllegalStateException("json_schema_2020_12_tool not listed"));
          ObjectNode args = McpJson.object();
          args.set("schema", focal.inputSchema());
          s.callTool("json_schema_echo", args);
        }
        case "sep-2322-client-request-state" -> {
          s.request("server/discover", McpJson.object());
          s.tools();
          s.callTool("test_mrtr_echo_state", McpJson.object());
          s.callTool("test_mrtr_unrelated", McpJson.object());
          s.callTool("test_mrtr_no_state", McpJson.object());
          s.callTool("test_mrtr_no_result_type", McpJson.object());
        }
        default -> throw new IllegalArgumentException("not a 2026-07-28 scenario: " + scenario);
      }
      out.println("herald: " + scenario + " done");
    }
  }

  /** {@code MCP_CONFORMANCE_CONTEXT}, the scenario's inputs, or an empty object. */
  private static JsonNode context() {
    String text = System.getenv("MCP_CONFORMANCE_CONTEXT");
    return text == null || text.isBlank() ? McpJson.object() : McpJson.mapper().readTree(text);
  }

  /** Arguments for a tool's required properties: a default, or a value of the property's type. */
  private static ObjectNode placeholders(ObjectNode schema) {
    ObjectNode args = McpJson.object();
    JsonNode props = schema.path("properties");
    for (JsonNode required : schema.path("required")) {
      String name = required.asString();
      args.set(name, sample(props.path(name)));
    }
    return args;
  }

  private static JsonNode sample(JsonNode schema) {
    if (schema.has("default")) {
      return schema.get("default");
    }
    return switch (schema.path("type").asString("string")) {
      case "boolean" -> McpJson.mapper().getNodeFactory().booleanNode(true);
      case "integer", "number" -> McpJson.mapper().getNodeFactory().numberNode(1);
      case "object" -> McpJson.object();
      case "array" -> McpJson.mapper().getNodeFactory().arrayNode();
      default -> McpJson.mapper().getNodeFactory().stringNode("us-west1");
    };
  }

  /**
   * A minimal stateless (2026-07-28) client over the HTTP transport's modern binding: each
   * request carries its own {@code _meta}; nothing depends on an earlier request.
   */
  static final class Session implements Transport.Receiver, AutoCloseable {
    private static final int MAX_ROUNDS = 5;

    private final StreamableHttpClientTransport transport;
    private final Implementation info;
    private final ClientCapabilities capabilities =
        new ClientCapabilities(null, null, null, McpJson.object(), null, null);
    private final AtomicLong ids = new AtomicLong();
    private final Map<RequestId, CompletableFuture<JsonRpcMessage.Response>> pending =
        new ConcurrentHashMap<>();
    private volatile ProtocolVersion version = ProtocolVersion.V2026_07_28;

    Session(URI url, Implementation info) {
      this.info = info;
      this.transport = StreamableHttpClientTransport.builder().uri(url).build();
      transport.modern(version);
      transport.start(this);
    }

    /** The listed tools, without those whose {@code x-mcp-header} annotations are invalid. */
    List<Tool> tools() throws Exception {
      JsonNode result = request("tools/list", McpJson.object());
      List<Tool> tools = new ArrayList<>();
      for (JsonNode t : result.path("tools")) {
        Tool tool = McpJson.fromTree(t, Tool.class);
        if (McpHeaders.validToolHeaders(tool)) {
          tools.add(tool);
        } else {
          System.err.println(
              "herald: dropped tool "
                  + tool.name()
                  + ": "
                  + McpHeaders.invalidToolHeaders(tool).orElse(""));
        }
      }
      return tools;
    }

    JsonNode callTool(String name, ObjectNode arguments) throws Exception {
      ObjectNode params = McpJson.object().put("name", name);
      params.set("arguments", arguments);
      return request("tools/call", params);
    }

    /**
     * Sends one request and returns its complete result: retried with a version the server
     * names in -32022, and through MRTR rounds.
     */
    JsonNode request(String method, ObjectNode params) throws Exception {
      ObjectNode base = params.deepCopy();
      ObjectNode current = base;
      for (int round = 0; round <= MAX_ROUNDS; round++) {
        JsonNode result;
        try {
          result = send(method, current);
        } catch (McpException e) {
          ProtocolVersion other = supportedInstead(e);
          if (other == null || round == MAX_ROUNDS) {
            throw e;
          }
          version = other;
          transport.modern(other);
          continue;
        }
        if (!"input_required".equals(result.path("resultType").asString("complete"))) {
          return result;
        }
        current = base.deepCopy();
        current.set("inputResponses", fulfil(result.path("inputRequests")));
        if (result.has("requestState")) {
          current.set("requestState", result.get("requestState"));
        }
      }
      throw new IllegalStateException(
          method + " still needs input after " + MAX_ROUNDS + " rounds");
    }

    private JsonNode send(String method, ObjectNode params) throws Exception {
      RequestId id = new RequestId.Number(ids.incrementAndGet());
      ObjectNode withMeta = params.deepCopy();
      withMeta.set("_meta", new RequestMeta(version, capabilities, info, null, null).toMeta());
      CompletableFuture<JsonRpcMessage.Response> answer = new CompletableFuture<>();
      pending.put(id, answer);
      transport.send(new JsonRpcMessage.Request(id, method, withMeta), null);
      JsonRpcMessage.Response response;
      try {
        response = answer.get(20, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new IllegalStateException(method + ": no answer in 20 s", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException(method + " failed: " + e.getCause().getMessage(), e);
      } finally {
        pending.remove(id);
      }
      return switch (response) {
        case JsonRpcMessage.Result r -> r.result();
        case JsonRpcMessage.Error e -> throw McpException.fromError(e.error());
      };
    }

    /** The version to retry with after -32022, or null when there is none to try. */
    private @Nullable ProtocolVersion supportedInstead(McpException e) {
      if (e.code() != ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION || e.data() == null) {
        return null;
      }
      for (JsonNode s : e.data().path("supported")) {
        ProtocolVersion v = ProtocolVersion.parse(s.asString("")).orElse(null);
        if (v != null && v.era() == ProtocolVersion.Era.MODERN) {
          return v;
        }
      }
      return null;
    }

    /** Answers each input request: elicitation accepted with the schema's defaults, roots none. */
    private static ObjectNode fulfil(JsonNode requests) {
      ObjectNode responses = McpJson.object();
      for (Map.Entry<String, JsonNode> r : requests.properties()) {
        JsonNode req = r.getValue();
        ObjectNode answer = McpJson.object();
        switch (req.path("method").asString("")) {
          case "elicitation/create" -> {
            answer.put("action", "accept");
            ObjectNode content = McpJson.object();
            for (Map.Entry<String, JsonNode> p :
                req.path("params").path("requestedSchema").path("properties").properties()) {
              content.set(p.getKey(), sample(p.getValue()));
            }
            answer.set("content", content);
          }
          case "roots/list" -> answer.set("roots", McpJson.mapper().getNodeFactory().arrayNode());
          default -> {
            answer.put("role", "assistant");
            answer.put("model", "herald-conformance");
            answer.set(
                "content", McpJson.object().put("type", "text").put("text", "conformance answer"));
          }
        }
        responses.set(r.getKey(), answer);
      }
      return responses;
    }

    @Override
    public void onFrame(DecodedMessage frame) {
      if (frame instanceof DecodedMessage.Valid v
          && v.message() instanceof JsonRpcMessage.Response r
          && r.id() != null) {
        CompletableFuture<JsonRpcMessage.Response> f = pending.get(r.id());
        if (f != null) {
          f.complete(r);
        }
      }
    }

    @Override
    public void onClose(@Nullable Throwable cause) {
      IllegalStateException closed = new IllegalStateException("connection closed", cause);
      pending.values().forEach(f -> f.completeExceptionally(closed));
    }

    @Override
    public void close() {
      transport.close();
    }
  }
}
