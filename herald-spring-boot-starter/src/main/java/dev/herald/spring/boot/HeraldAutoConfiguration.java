package dev.herald.spring.boot;

import dev.herald.http.ClusterMember;
import dev.herald.http.servlet.McpServlet;
import dev.herald.micrometer.HeraldMetrics;
import dev.herald.opentelemetry.HeraldTracing;
import dev.herald.redis.RedisCluster;
import dev.herald.server.McpServer;
import dev.herald.session.EventListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serves an MCP server from a Spring Boot servlet application (MCP 2025-11-25 basic/transports,
 * "Streamable HTTP", and the 2024-11-05 HTTP+SSE transport beneath it). What it defines, each
 * backing off when the application defines its own:
 *
 * <ul>
 *   <li>an {@link McpServer} named by {@code herald.name}/{@code herald.version}, holding the
 *       tools, prompts and resources of every bean whose class declares {@code @McpTool}, {@code
 *       @McpPrompt}, {@code @McpResource} or {@code @McpResourceTemplate} methods (a mistake in
 *       one fails start-up, naming the class, method and reason), then what every {@link
 *       McpServerCustomizer} bean adds;
 *   <li>an {@link McpServlet} mounted at {@code herald.path} (default {@code /mcp}) with async
 *       support, on the container Spring Boot starts (Tomcat by default), with the Host/Origin
 *       allow-lists, session limits and event store bounds of {@link HeraldProperties}, then every
 *       {@link McpServletCustomizer};
 *   <li>with herald-redis on the class path and {@code herald.redis.uri} set, a {@link
 *       RedisCluster} that makes the application one node of a Herald cluster (any {@link
 *       ClusterMember} bean the application defines is used instead);
 *   <li>with herald-micrometer on the class path and a {@code MeterRegistry} bean, Herald's
 *       meters in that registry (an {@link EventListener.Factory} bean of the application is
 *       used instead);
 *   <li>with herald-opentelemetry on the class path and an {@code OpenTelemetry} bean, a span
 *       for every request the server receives (and every request it sends back), with W3C trace
 *       context read from and written to {@code params._meta}, and a span for every task, linked
 *       to the request that created it (the meters and the task spans are one combined listener
 *       factory; an {@link EventListener.Factory} bean of the application replaces both);
 *   <li>the application's Jackson 3 {@code JsonMapper} bean, when it has one, binds the annotated
 *       tools' arguments and writes their results ({@code McpServer.Builder.jsonMapper}; {@code
 *       herald.application-json-mapper=false} keeps Herald's own);
 *   <li>{@link InFlightRequests} and a graceful shutdown that lets calls finish, then cancels
 *       them and ends every stream before the web server's own graceful shutdown.
 * </ul>
 *
 * <p>Only API that Spring Boot 3.5 and 4.0 share is used ({@code ServletRegistrationBean} and the
 * conditions kept their packages in Boot 4's modularisation), so one jar serves both.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration", // Boot 4
      "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration" // Boot 3.5
    })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(McpServlet.class)
@ConditionalOnProperty(prefix = "herald", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(HeraldProperties.class)
public class HeraldAutoConfiguration {
  /** The servlet's name in the container. */
  static final String SERVLET_NAME = "herald";

  /** Spring calls it. */
  public HeraldAutoConfiguration() {}

  /** The request counter behind the graceful shutdown. */
  @Bean
  @ConditionalOnMissingBean
  InFlightRequests heraldInFlightRequests() {
    return new InFlightRequests();
  }

  /** The MCP server, unless the application defines one. */
  @Bean
  @ConditionalOnMissingBean
  McpServer heraldMcpServer(
      HeraldProperties properties,
      Environment environment,
      InFlightRequests inFlight,
      ConfigurableListableBeanFactory beans,
      ObjectProvider<JsonMapper> jsonMappers,
      ObjectProvider<EventListener.Factory> events,
      ObjectProvider<EventListenerPart> parts,
      ObjectProvider<McpServerCustomizer> customizers) {
    String name = properties.getName();
    if (name == null) {
      name = environment.getProperty("spring.application.name", "herald");
    }
    String version = properties.getVersion();
    McpServer.Builder builder =
        McpServer.builder().info(name, version == null ? "0.0.0" : version).interceptor(inFlight);
    String instructions = properties.getInstructions();
    if (instructions != null) {
      builder.instructions(instructions);
    }
    if (properties.isApplicationJsonMapper()) {
      jsonMappers.ifUnique(builder::jsonMapper); // before the annotated beans are read
    }
    EventListener.Factory own = events.getIfUnique();
    if (own != null) {
      builder.eventListenerFactory(own);
    } else {
      // The server takes one factory: Herald's own parts (meters, task spans), combined.
      EventListener.Factory combined = null;
      for (EventListenerPart part : parts.orderedStream().toList()) {
        EventListener.Factory f = part.factory();
        if (f != null) {
          combined = combined == null ? f : combined.and(f);
        }
      }
      if (combined != null) {
        builder.eventListenerFactory(combined);
      }
    }
    List<Object> annotated = AnnotatedBeans.find(beans);
    if (!annotated.isEmpty()) {
      builder.annotated(annotated.toArray());
    }
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return builder.build();
  }

  /** {@link McpServlet} at {@code herald.path}, with async support. */
  @Bean
  @ConditionalOnMissingBean(name = "heraldServletRegistration")
  ServletRegistrationBean<McpServlet> heraldServletRegistration(
      McpServer server,
      HeraldProperties properties,
      ObjectProvider<ClusterMember> cluster,
      ObjectProvider<McpServletCustomizer> customizers) {
    McpServlet.Builder builder = McpServlet.builder().server(server);
    ServletSettings.apply(properties, builder);
    cluster.ifAvailable(builder::cluster);
    customizers.orderedStream().forEach(c -> c.customize(builder));
    ServletRegistrationBean<McpServlet> registration =
        new ServletRegistrationBean<>(builder.build(), mapping(properties.getPath()));
    registration.setName(SERVLET_NAME);
    registration.setAsyncSupported(true);
    registration.setLoadOnStartup(1); // init() starts the housekeeping timer with the container
    return registration;
  }

  /** Counts the endpoint's exchanges until their answers are written (graceful shutdown). */
  @Bean
  FilterRegistrationBean<OpenExchanges> heraldOpenExchanges() {
    FilterRegistrationBean<OpenExchanges> registration =
        new FilterRegistrationBean<>(new OpenExchanges());
    registration.setName("heraldOpenExchanges");
    registration.addServletNames(SERVLET_NAME);
    registration.setAsyncSupported(true);
    return registration;
  }

  /** Lets calls finish, then cancels them and ends the streams, before the web server stops. */
  @Bean
  HeraldShutdown heraldShutdown(
      ServletRegistrationBean<McpServlet> heraldServletRegistration,
      FilterRegistrationBean<OpenExchanges> heraldOpenExchanges,
      McpServer server,
      InFlightRequests inFlight,
      HeraldProperties properties) {
    McpServlet servlet = heraldServletRegistration.getServlet();
    if (servlet == null) {
      throw new IllegalStateException("heraldServletRegistration holds no McpServlet");
    }
    Duration timeout = properties.getShutdownTimeout();
    OpenExchanges exchanges = heraldOpenExchanges.getFilter();
    if (exchanges == null) {
      throw new IllegalStateException("heraldOpenExchanges holds no filter");
    }
    return new HeraldShutdown(servlet, server, inFlight, exchanges, timeout);
  }

  /** {@code /mcp} becomes {@code /mcp/*}: the endpoint is the mapping, legacy SSE beneath it. */
  static String mapping(String path) {
    String p = path.startsWith("/") ? path : "/" + path;
    while (p.endsWith("/") && p.length() > 1) {
      p = p.substring(0, p.length() - 1);
    }
    return p.equals("/") ? "/*" : p + "/*";
  }

  /** The Redis cluster, when herald-redis is present and {@code herald.redis.uri} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RedisCluster.class)
  @ConditionalOnProperty(prefix = "herald.redis", name = "uri")
  static class Redis {
    /** How long the starter keeps trying to join the cluster while Redis cannot be reached. */
    static final java.time.Duration REDIS_WAIT = java.time.Duration.ofSeconds(60);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(ClusterMember.class)
    RedisCluster heraldRedisCluster(HeraldProperties properties) {
      String uri = properties.getRedis().getUri();
      if (uri == null) {
        throw new IllegalStateException("herald.redis.uri is not set");
      }
      // A context started beside Redis, or on a busy machine, may reach it before it answers, or
      // lose its first connection during the join: keep trying for a bounded time.
      return RedisCluster.connect(URI.create(uri), REDIS_WAIT);
    }
  }

  /**
   * Herald's meters in the application's {@link MeterRegistry}, when herald-micrometer is on the
   * class path and a registry is defined (Spring Boot's actuator defines one), unless the
   * application defines its own {@link EventListener.Factory}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = {"dev.herald.micrometer.HeraldMetrics", "io.micrometer.core.instrument.MeterRegistry"})
  static class Metrics {
    @Bean
    EventListenerPart heraldMetrics(ObjectProvider<MeterRegistry> registry) {
      return () -> {
        MeterRegistry r = registry.getIfUnique();
        return r == null ? null : HeraldMetrics.listenerFactory(r);
      };
    }
  }

  /**
   * A span for every request, when herald-opentelemetry is on the class path and the application
   * has an {@code OpenTelemetry} bean (Spring Boot's actuator defines one with its OpenTelemetry
   * support): {@link HeraldTracing#serverInterceptor()} with {@code network.transport} {@code
   * tcp}, added before every other customizer's interceptors so that its span covers them.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = {"dev.herald.opentelemetry.HeraldTracing", "io.opentelemetry.api.OpenTelemetry"})
  static class Tracing {
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    McpServerCustomizer heraldTracing(ObjectProvider<OpenTelemetry> openTelemetry) {
      return builder ->
          openTelemetry.ifUnique(o ->
              builder.interceptor(
                  HeraldTracing.builder(o).networkTransport("tcp").build().serverInterceptor()));
    }

    /** A span per task, linked to the request that created it (unless the application defines
     * its own {@link EventListener.Factory}). */
    @Bean
    EventListenerPart heraldTaskSpans(ObjectProvider<OpenTelemetry> openTelemetry) {
      return () -> {
        OpenTelemetry o = openTelemetry.getIfUnique();
        return o == null ? null : HeraldTracing.create(o).listenerFactory();
      };
    }
  }
}
