package dev.herald.internal.session;

import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.ServerCapabilities;
import java.util.function.Predicate;

/**
 * A capability a method needs, and which side must have declared it (MCP specification, "Lifecycle
 * / Capability Negotiation": a method whose capability was not declared is answered with -32601).
 * Part of a {@link MethodRow}.
 */
public sealed interface Capability {
  /** The capability's name as in the specification, e.g. {@code resources} or {@code sampling}. */
  String name();

  /** A capability the server declares in its {@code initialize} answer (or {@code server/discover}). */
  record OfServer(String name, Predicate<ServerCapabilities> declaredIn) implements Capability {}

  /**
   * A capability the client declares in {@code initialize}; from 2026-07-28 on a request may also
   * carry it in {@code _meta["io.modelcontextprotocol/clientCapabilities"]}.
   */
  record OfClient(String name, Predicate<ClientCapabilities> declaredIn) implements Capability {}

  static Capability server(String name, Predicate<ServerCapabilities> declaredIn) {
    return new OfServer(name, declaredIn);
  }

  static Capability client(String name, Predicate<ClientCapabilities> declaredIn) {
    return new OfClient(name, declaredIn);
  }
}
