package dev.herald.client;

import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.session.TimeoutException;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DiscoverResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ResultType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a client settles on a protocol version with a server (MCP 2026-07-28 basic/versioning,
 * "Backward Compatibility"; basic/transports/stdio and streamable-http, "Backward Compatibility").
 *
 * <p>Design note. A modern probe is {@code server/discover} with the full request {@code _meta}. A
 * {@link DiscoverResult} makes the client modern. So does a recognised modern error: {@code -32022}
 * names the versions the server speaks, and the client retries with the newest mutual modern one
 * not tried yet (once more with the refused one when the server names it among those it speaks),
 * or, allowed to, goes to the handshake with the newest mutual handshake one; {@code -32020} and
 * {@code -32021} come only from modern servers, so they fail the connect as they are. Every other
 * answer is a handshake-era server's, whatever its form: any other JSON-RPC error (a transport
 * reports an HTTP 400/404/405 without a modern error as one), a result that is not a discover
 * result, or no answer within the discover timeout. The fallback never keys on one code. The
 * reverse: a handshake that is refused with an error naming supported versions ({@code
 * data.supported}) among which a modern one is found goes modern when the preference allows it.
 * The transport is told the version before the first request of each attempt ({@link
 * Transport#useProtocolVersion}); a transport that cannot carry a version is not tried with it.
 */
final class Negotiation {
  /** What the client and the server settled on: the version, and the server's self-description. */
  record Negotiated(
      ProtocolVersion version,
      @Nullable InitializeResult initialize,
      @Nullable DiscoverResult discover) {}

  /** A modern probe that found a handshake-era server (or a transport that cannot go modern). */
  private record FallBack(@Nullable ProtocolVersion offer, String why) {}

  private final McpClient client;
  private final SessionEngine engine;
  private final Transport transport;
  private final ClientSettings settings;

  Negotiation(
      McpClient client, SessionEngine engine, Transport transport, ClientSettings settings) {
    this.client = client;
    this.engine = engine;
    this.transport = transport;
    this.settings = settings;
  }

  /**
   * Settles the version.
   *
   * @throws McpException when the server refuses, or speaks no version this client may use
   * @throws TransportException when the connection ends
   */
  Negotiated run() throws InterruptedException {
    EraPreference eras = settings.eras();
    if (eras.triesModernFirst()) {
      Object probe = modern(settings.modernVersion());
      if (probe instanceof Negotiated n) {
        return n;
      }
      FallBack back = (FallBack) probe;
      if (!eras.mayFallBack()) {
        throw new McpException(
            ErrorCodes.INVALID_REQUEST,
            "the server does not speak "
                + settings.modernVersion().wire()
                + " and this client is pinned to it ("
                + back.why()
                + ")");
      }
      return handshake(back.offer() == null ? settings.legacyVersion() : back.offer(), false);
    }
    return handshake(settings.legacyVersion(), eras == EraPreference.HANDSHAKE_FIRST);
  }

  /** A {@link Negotiated}, or a {@link FallBack} saying why the server is taken for a handshake one. */
  private Object modern(ProtocolVersion first) throws InterruptedException {
    ProtocolVersion version = first;
    Set<ProtocolVersion> tried = new HashSet<>();
    Set<ProtocolVersion> retried = new HashSet<>();
    while (true) {
      tried.add(version);
      if (!carries(version)) {
        return new FallBack(null, "the transport cannot carry " + version.wire());
      }
      client.speaking(version);
      JsonNode node;
      try {
        node =
            ask(
                McpMethods.SERVER_DISCOVER,
                client.paramsFor(version, null, CallOptions.defaults()),
                settings.discoverTimeout(),
                client::learnDiscovered);
      } catch (TimeoutException e) {
        return new FallBack(null, "no answer to server/discover");
      } catch (McpException e) {
        switch (e.code()) {
          case ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION -> {
            List<ProtocolVersion> mutual = supported(e.data());
            ProtocolVersion next =
                mutual.stream()
                    .filter(v -> !v.handshake() && !tried.contains(v))
                    .max(Comparator.naturalOrder())
                    .orElse(null);
            if (next == null && mutual.contains(version) && retried.add(version)) {
              next = version; // the server names the version it refused: retry it once
            }
            if (next != null) {
              version = next;
              continue;
            }
            ProtocolVersion legacy =
                mutual.stream()
                    .filter(ProtocolVersion::handshake)
                    .max(Comparator.naturalOrder())
                    .orElse(null);
            if (legacy != null) {
              return new FallBack(legacy, "the server supports only handshake versions");
            }
            throw e; // no mutual version at all: surface the server's error
          }
          case ErrorCodes.HEADER_MISMATCH, ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY -> throw e;
          default -> {
            return new FallBack(
                null, "server/discover answered " + e.code() + " " + e.getMessage());
          }
        }
      }
      DiscoverResult discovered = asDiscover(node);
      if (discovered == null) {
        return new FallBack(null, "server/discover answered with something else than a result");
      }
      engine.version(version);
      return new Negotiated(version, null, discovered);
    }
  }

  /**
   * Tells the transport the version; a transport that cannot switch to it (an HTTP connection that
   * already spoke the handshake way) cannot carry it.
   */
  private boolean carries(ProtocolVersion version) {
    try {
      return transport.useProtocolVersion(version);
    } catch (IllegalStateException e) {
      return false;
    }
  }

  /**
   * Sends one negotiation request and waits for its result; {@code learn} reads the result in order
   * with the frames that follow it.
   */
  private JsonNode ask(
      String method, @Nullable ObjectNode params, Duration timeout, Consumer<JsonNode> learn)
      throws InterruptedException {
    return McpClient.await(
        engine
            .request(method, params, CallOptions.builder().timeout(timeout).build(), null, learn)
            .result());
  }

  /** The answer as a discover result, or {@code null} when it is not one. */
  static @Nullable DiscoverResult asDiscover(@Nullable JsonNode node) {
    if (node == null || !node.isObject() || !ResultType.COMPLETE.equals(ResultType.of(node))) {
      return null;
    }
    try {
      return McpJson.resultFromTree(node, DiscoverResult.class);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private Negotiated handshake(ProtocolVersion offer, boolean mayGoModern)
      throws InterruptedException {
    if (!transport.useProtocolVersion(offer)) {
      throw new TransportException("the transport cannot carry " + offer.wire());
    }
    client.speaking(offer); // a handshake-era server's requests are answered from now on
    JsonNode node;
    try {
      node =
          ask(
              McpMethods.INITIALIZE,
              McpJson.toObject(
                  new InitializeParams(
                      offer.wire(), settings.capabilities(), settings.info(), null)),
              settings.initializeTimeout(),
              client::learnCapabilities);
    } catch (McpException e) {
      ProtocolVersion modern =
          mayGoModern
              ? supported(e.data()).stream()
                  .filter(v -> !v.handshake())
                  .max(Comparator.naturalOrder())
                  .orElse(null)
              : null;
      if (modern == null) {
        throw e;
      }
      Object probe = modern(modern);
      if (probe instanceof Negotiated n) {
        return n;
      }
      throw e;
    }
    InitializeResult result = McpJson.resultFromTree(node, InitializeResult.class);
    ProtocolVersion agreed =
        ProtocolVersion.parse(result.protocolVersion())
            .filter(ProtocolVersion::handshake)
            .orElse(null);
    if (agreed == null) {
      throw new McpException(
          ErrorCodes.INVALID_REQUEST,
          "server chose protocol version "
              + result.protocolVersion()
              + ", which this client does not support");
    }
    if (agreed != offer) {
      transport.useProtocolVersion(agreed);
    }
    client.speaking(agreed);
    engine.version(agreed);
    engine.notify(McpMethods.INITIALIZED, null, null);
    return new Negotiated(agreed, result, null);
  }

  /** The versions an error's {@code data.supported} names that this client knows, in any order. */
  static List<ProtocolVersion> supported(@Nullable JsonNode data) {
    List<ProtocolVersion> out = new ArrayList<>();
    JsonNode list = data == null ? null : data.get("supported");
    if (list != null && list.isArray()) {
      for (JsonNode v : list) {
        if (v.isString()) {
          ProtocolVersion.parse(v.stringValue()).ifPresent(out::add);
        }
      }
    }
    return out;
  }
}
