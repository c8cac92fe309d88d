package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.wire.McpJson;
import dev.herald.wire.Prompt;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import java.io.PrintStream;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance suite's 2026-07-28 client scenarios ({@code request-metadata}, {@code
 * http-standard-headers}, {@code http-custom-headers}, {@code http-invalid-tool-headers}, {@code
 * json-schema-ref-no-deref}, {@code json-schema-2020-12-preservation}, {@code
 * sep-2322-client-request-state}), acted out with an ordinary {@link McpClient}: what they test
 * (per-request {@code _meta}, the retry after {@code -32022}, the HTTP headers, tools with invalid
 * {@code x-mcp-header} left out of {@link McpClient#tools()}, {@code input_required} rounds) is the
 * client's own behaviour, so nothing here is scenario-specific beyond which calls to make.
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

  /** Acts out {@code scenario} with {@code client}, connected to the suite's mock server. */
  static void run(String scenario, McpClient client, PrintStream out) throws Exception {
    switch (scenario) {
      case "request-metadata" -> {
        client.discover();
        client.tools();
      }
      case "http-standard-headers" -> {
        client.discover();
        for (Tool t : client.tools()) {
          client.callTool(t.name(), McpJson.object());
        }
        for (Resource r : client.resources()) {
          client.readResource(r.uri());
        }
        for (Prompt p : client.prompts()) {
          client.getPrompt(p.name(), null);
        }
      }
      case "http-custom-headers" -> {
        client.tools();
        for (JsonNode call : context().path("toolCalls")) {
          ObjectNode args = call.get("arguments") instanceof ObjectNode a ? a : McpJson.object();
          client.callTool(call.path("name").asString(), args);
        }
      }
      case "http-invalid-tool-headers" -> {
        for (Tool t : client.tools()) {
          client.callTool(t.name(), placeholders(t.inputSchema()));
        }
      }
      case "json-schema-ref-no-deref" -> {
        client.discover();
        client.tools();
      }
      case "json-schema-2020-12-preservation" -> {
        Tool focal =
            client.tools().stream()
                .filter(t -> t.name().equals("json_schema_2020_12_tool"))
                .findFirst()
                .orElseThrow(
                    () -> new IllegalStateException("json_schema_2020_12_tool not listed"));
        ObjectNode args = McpJson.object();
        args.set("schema", focal.inputSchema());
        client.callTool("json_schema_echo", args);
      }
      case "sep-2322-client-request-state" -> {
        client.discover();
        client.tools();
        client.callTool("test_mrtr_echo_state", McpJson.object());
        client.callTool("test_mrtr_unrelated", McpJson.object());
        client.callTool("test_mrtr_no_state", McpJson.object());
        client.callTool("test_mrtr_no_result_type", McpJson.object());
      }
      default -> throw new IllegalArgumentException("not a 2026-07-28 scenario: " + scenario);
    }
    out.println("herald: " + scenario + " done (" + client.protocolVersion().wire() + ")");
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
}
