package dev.herald.spring.boot.metrics;

import dev.herald.spring.boot.app.CountdownTools;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The test application's tool bean, with a meter registry: Herald's meters go to it. */
@SpringBootApplication
@Import(CountdownTools.class)
public class MetricsApplication {
  @Bean
  MeterRegistry registry() {
    return new SimpleMeterRegistry();
  }
}
