package dev.herald.server;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.AnnotationKeyword;
import com.networknt.schema.path.PathType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's input or output schema, compiled once when the tool is registered.
 *
 * <p>Design note (MCP 2025-11-25 server/tools, "Tool"). Schemas are JSON Schema 2020-12 unless
 * they name another dialect in {@code $schema}. Compilation never touches the network: remote
 * {@code $ref}s are refused, so a tool definition cannot make the server fetch a URL. Validation
 * reports every failing location as {@code $.path: message}, capped at {@link #MAX_REPORTED}
 * entries, with control characters removed so that a hostile argument name cannot forge the
 * message.
 *
 * <p>Numbers beyond what a handler can hold (a double's range anywhere, a long's where the schema
 * says {@code integer}) are refused before the validator runs ({@link NumberRange}).
 *
 * <p>Immutable and thread-safe; validation allocates per call only what the validator needs.
 */
final class ToolSchema {
  /** Most failures named in one message; the rest are counted. */
  static final int MAX_REPORTED = 5;

  /**
   * JSON Schema 2020-12 knowing MCP's {@code x-mcp-header} (MCP 2026-07-28 basic/transports, "Custom
   * Headers") as an annotation, so a tool that mirrors an argument into a header compiles without
   * the validator warning about an unknown keyword.
   */
  private static final Dialect DRAFT_2020_12_MCP =
      Dialect.builder(Dialects.getDraft202012())
          .keyword(new AnnotationKeyword("x-mcp-header"))
          .build();

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(
          DRAFT_2020_12_MCP,
          b ->
              b.schemaLoader(l -> l.fetchRemoteResources(false))
                  .schemaRegistryConfig(
                      SchemaRegistryConfig.builder()
                          .locale(Locale.ROOT)
                          .pathType(PathType.JSON_PATH)
                          .build()));

  private final Schema schema;
  private final JsonNode node;

  private ToolSchema(Schema schema, JsonNode node) {
    this.schema = schema;
    this.node = node;
  }

  /**
   * Compiles a schema.
   *
   * @throws IllegalArgumentException naming {@code what} when the schema cannot be compiled
   */
  static ToolSchema compile(ObjectNode node, String what) {
    try {
      ObjectNode copy = node.deepCopy();
      Schema s = REGISTRY.getSchema(copy);
      s.initializeValidators(); // resolve $refs now, not on the first call
      return new ToolSchema(s, copy);
    } catch (SchemaException | IllegalArgumentException | IllegalStateException e) {
      throw new IllegalArgumentException(
          what + " is not a valid JSON Schema: " + e.getMessage(), e);
    }
  }

  /** The failures of {@code instance}, one line each, or empty when it conforms. */
  Optional<String> check(JsonNode instance) {
    // Numbers no handler can hold first (JSON Schema's integer and number are unbounded); the
    // validator is not asked about them at all.
    List<String> outOfRange = new ArrayList<>();
    NumberRange.check(node, instance, "$", outOfRange);
    if (!outOfRange.isEmpty()) {
      return Optional.of(LogData.clean(String.join("; ", outOfRange)));
    }
    List<Error> errors = schema.validate(instance);
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder out = new StringBuilder();
    int shown = 0;
    for (Error e : errors) {
      if (shown == MAX_REPORTED) {
        out.append("; and ").append(errors.size() - shown).append(" more");
        break;
      }
      if (shown > 0) {
        out.append("; ");
      }
      out.append(LogData.clean(describe(e)));
      shown++;
    }
    return Optional.of(out.toString());
  }

  private static String describe(Error e) {
    String location = String.valueOf(e.getInstanceLocation());
    String message = e.getMessage() == null ? e.getKeyword() + " failed" : e.getMessage();
    // The validator's message usually starts with the location already; do not say it twice.
    return message.startsWith(location) ? message : location + ": " + message;
  }
}
