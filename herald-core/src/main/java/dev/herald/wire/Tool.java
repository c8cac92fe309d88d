package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool definition as listed by {@code tools/list}. Schemas are kept as JSON trees (JSON Schema
 * 2020-12). {@code execution} is legacy (2025-11-25) only.
 */
public record Tool(
    String name,
    @Nullable String title,
    @Nullable String description,
    ObjectNode inputSchema,
    @Nullable ObjectNode outputSchema,
    @Nullable ToolAnnotations annotations,
    @Nullable List<Icon> icons,
    @Nullable ObjectNode execution,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public Tool {
    java.util.Objects.requireNonNull(name, "name");
    if (inputSchema == null) {
      inputSchema = anyObject();
    }
  }

  /** The input schema of a tool that declares none: any object. */
  private static ObjectNode anyObject() {
    return McpJson.object().put("type", "object");
  }

  /**
   * A builder for a tool named {@code name}, the name clients call it by.
   *
   * @throws IllegalArgumentException if the name is null or blank
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * The tool's {@code execution.taskSupport}: {@link TaskSupport#FORBIDDEN} when absent or not one
   * of the three names (MCP 2025-11-25: absent means forbidden).
   */
  public TaskSupport taskSupport() {
    if (execution == null) {
      return TaskSupport.FORBIDDEN;
    }
    var v = execution.get("taskSupport");
    return v != null && v.isString()
        ? TaskSupport.parse(v.stringValue()).orElse(TaskSupport.FORBIDDEN)
        : TaskSupport.FORBIDDEN;
  }

  /** The name a UI shows: {@code title}, then {@code annotations.title}, then {@code name}. */
  public String displayName() {
    if (title != null) {
      return title;
    }
    if (annotations != null && annotations.title() != null) {
      return annotations.title();
    }
    return name;
  }

  /** Builds a {@link Tool}. */
  public static final class Builder {
    private final String name;
    private @Nullable String title;
    private @Nullable String description;
    private @Nullable ObjectNode inputSchema;
    private @Nullable ObjectNode outputSchema;
    private @Nullable ToolAnnotations annotations;
    private @Nullable List<Icon> icons;
    private @Nullable ObjectNode execution;
    private @Nullable ObjectNode meta;

    private Builder(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("tool name must not be blank");
      }
      this.name = name;
    }

    /** The human-readable name a UI shows (default: none; UIs fall back to the name). */
    public Builder title(String title) {
      this.title = title;
      return this;
    }

    /** What the tool does, for people and models (default: none). */
    public Builder description(String description) {
      this.description = description;
      return this;
    }

    /**
     * The JSON Schema of the arguments (default {@code {"type": "object"}}: any object). A server
     * refuses it when the tool is registered if it cannot be compiled, and validates every call's
     * arguments against it.
     */
    public Builder inputSchema(ObjectNode schema) {
      this.inputSchema = schema;
      return this;
    }

    /**
     * The JSON Schema of the result's {@code structuredContent} (default: none, and then results
     * need not carry structured content).
     */
    public Builder outputSchema(ObjectNode schema) {
      this.outputSchema = schema;
      return this;
    }

    /** Hints about the tool's behaviour (read-only, destructive…); untrusted (default: none). */
    public Builder annotations(ToolAnnotations annotations) {
      this.annotations = annotations;
      return this;
    }

    /**
     * Icons a UI may show (default: none).
     *
     * @throws NullPointerException if the list or an element is null
     */
    public Builder icons(List<Icon> icons) {
      this.icons = List.copyOf(icons);
      return this;
    }

    /** The {@code execution} object, such as {@code taskSupport} (default: none). */
    public Builder execution(ObjectNode execution) {
      this.execution = execution;
      return this;
    }

    /**
     * Sets {@code execution.taskSupport} (default: absent, which means {@link
     * TaskSupport#FORBIDDEN}), keeping any other {@code execution} field.
     */
    public Builder taskSupport(TaskSupport support) {
      java.util.Objects.requireNonNull(support, "support");
      ObjectNode e = execution == null ? McpJson.object() : execution.deepCopy();
      e.put("taskSupport", support.wire());
      this.execution = e;
      return this;
    }

    /** The tool's {@code _meta} (default: none). */
    public Builder meta(ObjectNode meta) {
      this.meta = meta;
      return this;
    }

    /** The tool. */
    public Tool build() {
      ObjectNode schema = inputSchema != null ? inputSchema : anyObject();
      return new Tool(
          name, title, description, schema, outputSchema, annotations, icons, execution, meta);
    }
  }
}
