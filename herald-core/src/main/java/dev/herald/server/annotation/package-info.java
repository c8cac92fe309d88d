/**
 * Annotations that turn plain methods into MCP tools, prompts and resources, with no framework:
 * {@link dev.herald.server.annotation.McpTool}, {@link dev.herald.server.annotation.McpPrompt},
 * {@link dev.herald.server.annotation.McpResource} and {@link
 * dev.herald.server.annotation.McpResourceTemplate} on public methods, {@link
 * dev.herald.server.annotation.McpParam} on their parameters (and on record components). Register
 * the objects that carry them with {@link
 * dev.herald.server.McpServer.Builder#annotated(Object...)}, which derives every definition (names,
 * input and output schemas, prompt arguments, template variables) and reports every mistake in an
 * annotated class at once, naming the class, the method and the reason, before the server is
 * built.
 *
 * <p>Threading: an annotated method runs on the request's own virtual thread, as a hand-written
 * handler does; it may block. Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.server.annotation;

import org.jspecify.annotations.NullMarked;
