/**
 * Herald's Spring Boot starter: auto-configuration that builds an MCP server from the
 * application's beans and serves it with Herald's servlet on the container Spring Boot starts.
 * Spring applications run on the class path; this descriptor states the module's surface and
 * opens its package to Spring, which instantiates its configuration and beans reflectively.
 */
module dev.herald.spring.boot {
  requires transitive dev.herald.servlet;
  requires spring.boot;
  requires spring.boot.autoconfigure;
  requires spring.beans;
  requires spring.context;
  requires spring.core;
  requires static dev.herald.redis;
  requires static dev.herald.micrometer;
  requires static micrometer.core;
  requires static dev.herald.opentelemetry;
  requires static io.opentelemetry.api;
  requires static org.jspecify;

  exports dev.herald.spring.boot;

  opens dev.herald.spring.boot to
      spring.core,
      spring.beans,
      spring.context;
}
