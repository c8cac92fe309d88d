/**
 * Herald core: the MCP wire model, the server and client roles, the stdio transport and the
 * Streamable HTTP client transport (on the JDK's {@code java.net.http}), over one session engine.
 * Runtime dependencies: Jackson, and networknt's JSON Schema validator for tool arguments and
 * structured output.
 *
 * <p>The API is the exported packages: {@code dev.herald.server} and {@code dev.herald.client}
 * (the roles), {@code dev.herald.wire} (every MCP type), {@code dev.herald.session} (what a call
 * carries: options, cancellation, progress, injected time), {@code dev.herald.tasks} (tasks at
 * rest: the task store and its in-memory implementation), {@code dev.herald.client.auth} (a
 * client's OAuth 2.1 authorization with a protected server), {@code dev.herald.auth} (the principal
 * a bearer token stands for, and the verifier SPI) and {@code dev.herald.transport} with
 * its stdio and HTTP client implementations. The session engine lives in {@code
 * dev.herald.internal.session}, exported only to Herald's own modules.
 */
// The qualified exports name Herald modules that are compiled after this one.
@SuppressWarnings("module")
module dev.herald.core {
  requires transitive tools.jackson.databind;
  requires transitive tools.jackson.core;
  requires transitive com.fasterxml.jackson.annotation;
  requires static transitive org.jspecify;
  requires com.networknt.schema;
  requires transitive java.net.http; // HttpClient appears in the HTTP transport's builder

  exports dev.herald.wire;
  exports dev.herald.session;
  exports dev.herald.transport;
  exports dev.herald.transport.stdio;
  exports dev.herald.transport.http;
  exports dev.herald.server;
  exports dev.herald.server.annotation;
  exports dev.herald.client;
  exports dev.herald.client.auth;
  exports dev.herald.tasks;
  exports dev.herald.auth;

  // The session engine, for Herald's own modules only (herald-cli, herald-benchmarks and
  // herald-interop run on the class path).
  exports dev.herald.internal.session to dev.herald.http;
  // The server role's scale-out seams (docs/scale-out.md), for the HTTP server and Redis modules.
  exports dev.herald.internal.server to
      dev.herald.http,
      dev.herald.redis;

  opens dev.herald.wire to tools.jackson.databind;
}
