/**
 * Herald core: the MCP wire model, the session engine, the server and client roles, the stdio
 * transport and the Streamable HTTP client transport (on the JDK's {@code java.net.http}).
 * Runtime dependencies: Jackson, and networknt's JSON Schema validator for tool arguments and
 * structured output.
 */
module dev.herald.core {
  requires transitive tools.jackson.databind;
  requires transitive tools.jackson.core;
  requires transitive com.fasterxml.jackson.annotation;
  requires static transitive org.jspecify;
  requires com.networknt.schema;
  requires transitive java.net.http; // HttpClient appears in the HTTP transport's builder

  exports dev.herald.wire;
  exports dev.herald.session;
  // The session engine, for Herald's own modules only.
  exports dev.herald.internal.session to dev.herald.http, dev.herald.servlet;
  exports dev.herald.transport;
  exports dev.herald.transport.stdio;
  exports dev.herald.transport.http;
  exports dev.herald.server;
  exports dev.herald.client;

  opens dev.herald.wire to tools.jackson.databind;
}
