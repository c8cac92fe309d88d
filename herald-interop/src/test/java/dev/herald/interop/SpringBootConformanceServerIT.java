package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.server.McpServer;
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
 * application that holds herald-spring-boot-starter and defines the demo fixture as its {@code
 * McpServer} bean: the starter backs off from building a server, mounts its servlet at {@code
 * /mcp} on the Tomcat that Spring Boot starts (127.0.0.1, a free port), and every check passes
 * with no warnings, as against {@code herald serve} ({@link ConformanceServerIT}).
 */
@Timeout(300)
class SpringBootConformanceServerIT {

  /** The application: auto-configuration only, and the fixture as its server. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class FixtureApplication {
    @Bean
    McpServer demoFixture() {
      return DemoFixture.server();
    }
  }

  @Test
  void everyServerScenarioPassesWithNoWarningsThroughSpringBootsTomcat() throws Exception {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(FixtureApplication.class)
            .properties("server.address=127.0.0.1", "server.port=0")
            .run()) {
      String port = app.getEnvironment().getRequiredProperty("local.server.port");
      Object webServer = app.getClass().getMethod("getWebServer").invoke(app);
      assertThat(webServer.getClass().getName()).contains("Tomcat");

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
