package dev.herald.spring.boot3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.spring.boot.RunningApp;
import dev.herald.spring.boot.app.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** This module's class path really is Spring Boot 3.5 on Tomcat 10.1 (the starter's tests run here too). */
class SpringBoot3Test {
  @Test
  void theStarterRunsOnSpringBoot35AndTomcat101() throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    try (RunningApp app = RunningApp.start(TestApplication.class)) {
      assertThat(app.webServer()).contains("Tomcat");
      assertThat(org.apache.catalina.util.ServerInfo.getServerNumber()).startsWith("10.1.");
    }
  }
}
