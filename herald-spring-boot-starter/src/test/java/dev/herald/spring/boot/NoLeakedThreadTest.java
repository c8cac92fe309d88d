package dev.herald.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.McpJson;
import jakarta.servlet.ServletContext;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.web.context.WebApplicationContext;

/**
 * Herald's threads that outlive the application (the shared timer) hold no reference to the web
 * application's class loader as their context class loader, which is what Tomcat checks when the
 * application stops before it reports a thread as leaked.
 */
@Timeout(120)
class NoLeakedThreadTest {
  @Test
  void noHeraldThreadHoldsTheWebApplicationsClassLoaderAfterTimedCallsThroughTomcat()
      throws Exception {
    try (RunningApp app = RunningApp.start(TestApplication.class)) {
      try (McpClient client =
          McpClient.builder()
              .eras(EraPreference.HANDSHAKE_ONLY)
              .connect(new StreamableHttpClientTransport(app.mcp()))) {
        // progress flushes and the call's timeout go through the shared timer
        client.callTool(
            "countdown", McpJson.mapper().createObjectNode().put("steps", 3).put("delayMs", 1));
      }
      ServletContext servletContext =
          Objects.requireNonNull(((WebApplicationContext) app.context()).getServletContext());
      ClassLoader webApp = servletContext.getClassLoader();
      List<Thread> herald =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("herald"))
              .toList();
      assertThat(herald).extracting(Thread::getName).contains("herald-timer");
      assertThat(herald).allSatisfy(t -> assertThat(t.getContextClassLoader()).isNotSameAs(webApp));
    }
  }
}
