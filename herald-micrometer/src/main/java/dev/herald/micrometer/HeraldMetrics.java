package dev.herald.micrometer;

import dev.herald.session.EventListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;

/**
 * Micrometer meters for Herald sessions: an {@link EventListener.Factory} that records what every
 * session does (sessions, requests, notifications, progress, SSE streams, tasks) in a {@link
 * MeterRegistry}. Give it to {@code McpServer.Builder.eventListenerFactory} or {@code
 * McpClient.Builder.eventListenerFactory}; one factory serves every session of that server or
 * client, and its meters aggregate over them.
 *
 * <p><b>Meters.</b> All names start with {@code herald.}; every meter carries the tags given here
 * and {@code role} ({@code server} or {@code client}: which side of the session this process
 * plays). The full table is in {@code docs/observability.md}:
 *
 * <ul>
 *   <li>{@code herald.sessions.open} (gauge), {@code herald.sessions.opened}, {@code
 *       herald.sessions.closed} (tag {@code cause}: {@code normal} or {@code error});
 *   <li>{@code herald.requests} (timer of the requests this side handled; tags {@code method},
 *       {@code outcome}: {@code ok}, {@code error}, {@code cancelled}; {@code error}: the
 *       JSON-RPC error code for the MCP specification's and JSON-RPC's own codes, {@code
 *       application} for any other, {@code none} on success), {@code herald.requests.active}
 *       (gauge), {@code herald.requests.refused} (before any handler ran; {@code method}, {@code
 *       error}), {@code herald.responses.ignored}, {@code herald.messages.invalid} ({@code
 *       error});
 *   <li>{@code herald.notifications.sent} ({@code family}), {@code herald.notifications.gated}
 *       ({@code family}, {@code reason}), {@code herald.notifications.dropped} ({@code family},
 *       {@code reason});
 *   <li>{@code herald.progress.accepted}, {@code herald.progress.refused} ({@code reason}: a
 *       received update the call refused), {@code herald.progress.reports.refused} ({@code
 *       reason}: a handler's own report its emitter refused);
 *   <li>{@code herald.streams.opened}, {@code herald.streams.resumed}, {@code
 *       herald.streams.closed}, {@code herald.streams.slow_reader_closes} ({@code kind}: {@code
 *       request} or {@code standing});
 *   <li>{@code herald.tasks.status} ({@code status}: each status a task entered), {@code
 *       herald.tasks.running} (gauge).
 * </ul>
 *
 * <p><b>Cardinality.</b> Every tag takes its values from a small closed set: the MCP
 * specification's methods (any other method name, a peer's made-up one included, is counted as
 * {@code other}), Herald's enums, and error-code classes. No session id, request id, task id,
 * tool name, resource uri or argument ever becomes a tag. Per-tool timings belong to traces
 * (herald-opentelemetry), whose spans carry the tool's name.
 *
 * <p><b>Cost.</b> Each callback updates one meter, found in a small table after its first use;
 * nothing blocks. Meters are registered when first used, so a registry shows only what
 * happened.
 *
 * {@snippet :
 * MeterRegistry registry = new SimpleMeterRegistry();
 * McpServer server = McpServer.builder()
 *     .eventListenerFactory(HeraldMetrics.listenerFactory(registry, Tags.of("app", "billing")))
 *     .build();
 * }
 *
 * <p>Make one factory per registry and role (a second factory on the same registry and tags
 * would share the first one's counters but not its gauges).
 */
// Micrometer is an automatic module, so dev.herald.micrometer cannot require it transitively;
// its types in this API are the application's own (javac's "exports" lint).
@SuppressWarnings("exports")
public final class HeraldMetrics {
  private HeraldMetrics() {}

  /** {@link #listenerFactory(MeterRegistry, Iterable)} with no common tags. */
  public static EventListener.Factory listenerFactory(MeterRegistry registry) {
    return listenerFactory(registry, Tags.empty());
  }

  /**
   * A factory whose listeners record every session's events in {@code registry}.
   *
   * @param tags common tags added to every meter (an application name, say); they must be of low
   *     cardinality, since every meter carries them
   */
  public static EventListener.Factory listenerFactory(MeterRegistry registry, Iterable<Tag> tags) {
    Objects.requireNonNull(registry, "registry");
    Tags common = Tags.of(Objects.requireNonNull(tags, "tags"));
    Meters server = new Meters(registry, common.and("role", "server"));
    Meters client = new Meters(registry, common.and("role", "client"));
    return role -> new MetricsListener(role == EventListener.Role.SERVER ? server : client);
  }
}
