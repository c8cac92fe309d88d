/**
 * Herald core: the MCP wire model, the session engine, the server and client roles and the stdio
 * transport. Runtime dependencies: Jackson, and networknt's JSON Schema validator for tool
 * arguments and structured output.
 */
module dev.herald.core {
  requires transitive tools.jackson.databind;
  requires transitive tools.jackson.core;
  requires transitive com.fasterxml.jackson.annotation;
  requires static transitive org.jspecify;
  requires com.networknt.schema;

  exports dev.herald.wire;
  exports dev.herald.session;
  exports dev.herald.transport;
  exports dev.herald.transport.stdio;
  exports dev.herald.server;
  exports dev.herald.client;

  opens dev.herald.wire to tools.jackson.databind;
}
