package dev.herald.client;

import dev.herald.client.McpClient.Area;
import dev.herald.client.McpClient.SessionRestart;
import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.session.Interceptor;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Root;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link McpClient.Builder} said, frozen when the client connects: every session the
 * client opens (the first, and each one that replaces a session the server lost) is opened from
 * this, so changing the builder afterwards cannot change a live client.
 *
 * @param capabilities what the client declares: the builder's extras plus those its handlers imply
 * @param legacyVersion the version offered in {@code initialize}
 * @param modernVersion the version a 2026-07-28-era client names in every request's {@code _meta}
 * @param eras which era the client tries first, and whether it may change era
 * @param discoverTimeout how long the {@code server/discover} probe waits before the client takes
 *     the server for a handshake-era one
 * @param maxInputRounds how many {@code input_required} rounds one call may take
 * @param cacheIdentity who the transport's credentials speak for, read when a result is cached:
 *     {@code private} cache entries are kept per identity and never served to another; {@code
 *     null} keeps no private entry at all
 * @param interceptors the host's interceptors around every request the server sends, outermost first
 * @param eventListeners makes the event listener of each session the client opens
 * @param tasks how the client treats tasks (the 2026-07-28 extension, requested ttl, hosting)
 * @param transports where fresh transports come from when a lost session is replaced; null when the
 *     client was connected with a single transport (then it never restarts)
 */
record ClientSettings(
    Implementation info,
    ClientCapabilities capabilities,
    ProtocolVersion legacyVersion,
    ProtocolVersion modernVersion,
    EraPreference eras,
    Duration discoverTimeout,
    int maxInputRounds,
    Supplier<@Nullable String> cacheIdentity,
    CallOptions defaults,
    Duration initializeTimeout,
    Ticker ticker,
    Scheduler scheduler,
    List<Consumer<LoggingMessageParams>> logListeners,
    Map<Area, List<Runnable>> listChangedListeners,
    @Nullable SamplingHandler sampling,
    @Nullable ElicitationHandler elicitation,
    @Nullable List<Root> roots,
    @Nullable Supplier<Transport> transports,
    List<Consumer<SessionRestart>> restartListeners,
    List<Interceptor<McpClient>> interceptors,
    EventListener.Factory eventListeners,
    ClientTasks tasks) {

  ClientSettings {
    logListeners = List.copyOf(logListeners);
    EnumMap<Area, List<Runnable>> copy = new EnumMap<>(Area.class);
    for (Area a : Area.values()) {
      copy.put(a, List.copyOf(listChangedListeners.getOrDefault(a, List.of())));
    }
    listChangedListeners = java.util.Collections.unmodifiableMap(copy);
    roots = roots == null ? null : List.copyOf(roots);
    restartListeners = List.copyOf(restartListeners);
    interceptors = List.copyOf(interceptors);
  }
}
