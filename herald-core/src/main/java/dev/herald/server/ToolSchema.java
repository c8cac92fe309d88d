package dev.herald.server;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
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
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's input or output schema, checked when the tool is registered and compiled once.
 *
 * <p>Design note (MCP 2025-11-25 server/tools, "Tool"). Schemas are JSON Schema 2020-12 unless
 * they name another dialect in {@code $schema}. Compilation never touches the network: remote
 * {@code $ref}s are refused, so a tool definition cannot make the server fetch a URL. Validation
 * reports every failing location as {@code $.path: message}, capped at {@link #MAX_REPORTED}
 * entries, with control characters removed so that a hostile argument name cannot forge the
 * message.
 *
 * <p>A schema that cannot fail to compile ({@link PlainSchema}: the usual object of typed
 * properties) is compiled on the tool's first call rather than at registration, so a server does
 * not load the validator before it answers {@code initialize}; any other schema is compiled at
 * registration, where a broken one is refused.
 *
 * <p>Numbers beyond what a handler can hold (a double's range anywhere, a long's where the schema
 * says {@code integer}) are refused before the validator runs ({@link NumberRange}).
 *
 * <p>Thread-safe; validation allocates per call only what the validator needs.
 */
final class ToolSchema {
  /** Most failures named in one message; the rest are counted. */
  static final int MAX_REPORTED = 5;

  private final JsonNode node;
  private final String what;
  private final ReentrantLock compiling = new ReentrantLock();

  /** Whether {@link SchemaShortcut} may answer for this schema (it reads the keywords it knows). */
  private final boolean shortcut;

  private volatile @Nullable Compiled compiled;

  private ToolSchema(JsonNode node, String what, @Nullable Compiled compiled) {
    this.node = node;
    this.what = what;
    this.compiled = compiled;
    this.shortcut = SchemaShortcut.applies(node);
  }

  /**
   * Checks a schema and compiles it now, or on first use when it cannot fail to compile.
   *
   * @throws IllegalArgumentException naming {@code what} when the schema cannot be compiled
   */
  static ToolSchema compile(ObjectNode node, String what) {
    ObjectNode copy = node.deepCopy();
    return new ToolSchema(copy, what, PlainSchema.test(copy) ? null : Compiled.of(copy, what));
  }

  /**
   * Why {@code schema} is not a valid JSON Schema 2020-12 (checked against the dialect's
   * meta-schema, which the validator bundles: no network), or empty when it is one. For schemas
   * written as text by hand, where {@link #compile} alone would accept a misspelt type name.
   */
  static Optional<String> metaSchemaProblems(JsonNode schema) {
    return Compiled.Meta.INSTANCE.check(schema);
  }

  /** The failures of {@code instance}, one line each, or empty when it conforms. */
  Optional<String> check(JsonNode instance) {
    // Numbers no handler can hold first (JSON Schema's integer and number are unbounded); the
    // validator is not asked about them at all.
    if (!NumberRange.allFit(node, instance)) {
      List<String> outOfRange = new ArrayList<>();
      NumberRange.check(node, instance, "$", outOfRange);
      if (!outOfRange.isEmpty()) {
        return Optional.of(LogData.clean(String.join("; ", outOfRange)));
      }
    }
    if (shortcut && SchemaShortcut.accepts(node, instance)) {
      return Optional.empty(); // certainly conforms: the validator would find nothing
    }
    return compiled().check(instance);
  }

  /** The validator's own answer, without the shortcut (tests compare the two). */
  Optional<String> validatorCheck(JsonNode instance) {
    return compiled().check(instance);
  }

  private Compiled compiled() {
    Compiled c = compiled;
    if (c != null) {
      return c;
    }
    compiling.lock();
    try {
      c = compiled;
      if (c == null) {
        c = Compiled.of(node, what);
        compiled = c;
      }
      return c;
    } finally {
      compiling.unlock();
    }
  }

  /** The compiled validator; loading this class loads the validator library. */
  private static final class Compiled {
    /**
     * JSON Schema 2020-12, where a keyword the dialect does not define (a tool's {@code
     * x-mcp-header}, MCP 2026-07-28 SEP-2243, or any vendor extension) is an annotation: kept,
     * never validated, and never logged as unknown.
     */
    private static final Dialect DIALECT =
        Dialect.builder(Dialects.getDraft202012())
            .unknownKeywordFactory((keyword, context) -> new AnnotationKeyword(keyword))
            .build();

    private static final SchemaRegistry REGISTRY =
        SchemaRegistry.withDefaultDialect(
            DIALECT,
            b ->
                b.schemaLoader(l -> l.fetchRemoteResources(false))
                    .schemaRegistryConfig(
                        SchemaRegistryConfig.builder()
                            .locale(Locale.ROOT)
                            .pathType(PathType.JSON_PATH)
                            .build()));

    /** The JSON Schema 2020-12 meta-schema, from the validator's own resources, loaded once. */
    private static final class Meta {
      static final Compiled INSTANCE = load();

      private static Compiled load() {
        Schema s =
            REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        s.initializeValidators();
        return new Compiled(s);
      }
    }

    private final Schema schema;

    private Compiled(Schema schema) {
      this.schema = schema;
    }

    static Compiled of(JsonNode node, String what) {
      try {
        Schema s = REGISTRY.getSchema(node);
        s.initializeValidators(); // resolve $refs now, not on the first call
        return new Compiled(s);
      } catch (SchemaException | IllegalArgumentException | IllegalStateException e) {
        throw new IllegalArgumentException(
            what + " is not a valid JSON Schema: " + e.getMessage(), e);
      }
    }

    Optional<String> check(JsonNode instance) {
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
      String location;
      String message;
      try {
        location = String.valueOf(e.getInstanceLocation());
        message = e.getMessage() == null ? e.getKeyword() + " failed" : e.getMessage();
      } catch (IllegalArgumentException unwritable) {
        // the validator cannot write some paths as JSON paths (a member named ""): say what failed
        return "$: " + e.getKeyword() + " failed";
      }
      // The validator's message usually starts with the location already; do not say it twice.
      return message.startsWith(location) ? message : location + ": " + message;
    }
  }
}
