package dev.herald.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application that serves MCP at {@code /mcp}: herald-spring-boot-starter finds
 * {@link ReportTools}, registers its annotated tool and resource, and mounts Herald's servlet on
 * the Tomcat that Spring Boot starts. Nothing else is configured in code.
 */
@SpringBootApplication
public class DemoApplication {
  /** Starts the application. */
  public static void main(String[] args) {
    SpringApplication.run(DemoApplication.class, args);
  }
}
