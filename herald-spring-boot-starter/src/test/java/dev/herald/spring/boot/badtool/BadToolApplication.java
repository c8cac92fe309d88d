package dev.herald.spring.boot.badtool;

import dev.herald.server.annotation.McpTool;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;

/** An application whose annotated bean has a mistake: start-up must fail and say where. */
@SpringBootApplication
public class BadToolApplication {
  /** A tool whose parameter type has no JSON Schema. */
  @Component
  public static class BadTools {
    /** {@link Thread} is not a supported parameter type. */
    @McpTool(description = "Cannot be described.")
    public String broken(Thread thread) {
      return thread.getName();
    }
  }
}
