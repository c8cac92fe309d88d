package dev.herald.spring.boot.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application with only the starter and one annotated tool bean ({@link
 * CountdownTools}): what the starter's tests start.
 */
@SpringBootApplication
public class TestApplication {
  /** The subscribable resource. */
  public static final String COUNTER = CountdownTools.COUNTER;
}
