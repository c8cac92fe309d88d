package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.server.McpServer;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpTool;
import dev.herald.spring.boot.McpServerCustomizer;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The official conformance suite's server mode, {@code --suite all}, against a Spring Boot 4
 * application that holds herald-spring-boot-starter, one annotated tool bean and an {@link
 * McpServerCustomizer} adding the demo fixture ({@link DemoFixture#register}): the server is the
 * one the starter builds (its properties, annotated beans, in-flight counter and customizers),
 * its servlet is mounted at {@code /mcp} on the Tomcat that Spring Boot starts (127.0.0.1, a free
 * port), and every check passes with no warnings, as against {@code herald serve} ({@link
 * ConformanceServerIT}).
 */
@Timeout(300)
class SpringBootConformanceServerIT {

  /** The application: auto-configuration, one annotated bean, and the fixture as a customizer. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class FixtureApplication {
    @Bean
    McpServerCustomizer demoFixture() {
      return DemoFixture::register;
    }

    @Bean
    Greeter greeter() {
      return new Greeter();
    }
  }

  /** The application's one annotated tool bean. */
  public static class Greeter {
    /** Says hello. */
    @McpTool(name = "spring_hello", description = "Says hello to someone by name.")
    public String hello(@McpParam(name = "name", description = "Who to greet") String name) {
      return "Hello, " + name + "!";
    }
  }

  @Test
  void everyServerScenarioPassesWithNoWarningsThroughTheStartersServerOnSpringBootsTomcat()
      throws Exception {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(FixtureApplication.class)
            .properties("server.address=127.0.0.1", "server.port=0")
            .run()) {
      String port = app.getEnvironment().getRequiredProperty("local.server.port");
      Object webServer = app.getClass().getMethod("getWebServer").invoke(app);
      assertThat(webServer.getClass().getName()).contains("Tomcat");
      assertThat(app.getBeanNamesForType(McpServer.class))
          .as("the starter built the server")
          .containsExactly("heraldMcpServer");
      assertThat(app.getBean(McpServer.class).tools())
          .extracting(Tool::name)
          .contains("spring_hello", "echo", "test_simple_text", "test_trigger_tool_change");

      ConformanceSuite.Totals t =
          ConformanceSuite.run(
              "server-all-spring-boot",
              List.of("server", "--url", "http://127.0.0.1:" + port + "/mcp", "--suite", "all"),
              Map.of());
      assertThat(t.failed()).as(t.output()).isZero();
      assertThat(t.warnings()).as(t.output()).isZero();
      assertThat(t.passed()).as("checks passed").isGreaterThanOrEqualTo(46);
      assertThat(t.exitCode()).as(t.output()).isZero();
    }
  }
}
