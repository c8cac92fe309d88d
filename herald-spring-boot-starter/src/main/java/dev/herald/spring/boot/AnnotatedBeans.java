package dev.herald.spring.boot;

import dev.herald.server.annotation.McpAnnotations;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Finds the application's beans whose classes declare {@code @McpTool}, {@code @McpPrompt},
 * {@code @McpResource} or {@code @McpResourceTemplate} methods, so the server registers them with
 * {@code McpServer.Builder.annotated}. Types are read from the bean definitions without creating
 * factory beans; only the beans found are created, in definition order.
 */
final class AnnotatedBeans {
  private AnnotatedBeans() {}

  static List<Object> find(ConfigurableListableBeanFactory beans) {
    List<Object> found = new ArrayList<>();
    for (String name : beans.getBeanDefinitionNames()) {
      if (beans.getBeanDefinition(name).isAbstract()) {
        continue;
      }
      Class<?> type = beans.getType(name, false);
      if (type != null && McpAnnotations.declaresEntries(ClassUtils.getUserClass(type))) {
        found.add(beans.getBean(name));
      }
    }
    return found;
  }
}
