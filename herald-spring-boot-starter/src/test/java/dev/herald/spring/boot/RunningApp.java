package dev.herald.spring.boot;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application started for a test on a free port of 127.0.0.1, through the servlet
 * container Spring Boot picks, and closed with the test. Uses only API that Spring Boot 3.5 and
 * 4.0 share, so the Boot 3.5 tests use it too.
 */
public final class RunningApp implements AutoCloseable {
  private final ConfigurableApplicationContext context;

  private RunningApp(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /** Starts {@code app} with {@code properties} ({@code key=value}) on top of the defaults. */
  public static RunningApp start(Class<?> app, String... properties) {
    List<String> props = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=0"));
    props.addAll(List.of(properties));
    return new RunningApp(
        new SpringApplicationBuilder(app).properties(props.toArray(String[]::new)).run());
  }

  /** The port the container listens on. */
  public int port() {
    return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
  }

  /** {@code http://127.0.0.1:port/path}. */
  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port() + path);
  }

  /** The MCP endpoint at the default path. */
  public URI mcp() {
    return uri("/mcp");
  }

  /** The application's context. */
  public ConfigurableApplicationContext context() {
    return context;
  }

  /** The class name of the web server Spring Boot started (Tomcat, Jetty...). */
  public String webServer() throws ReflectiveOperationException {
    Object server = context.getClass().getMethod("getWebServer").invoke(context);
    return server.getClass().getName();
  }

  @Override
  public void close() {
    context.close();
  }
}
