package dev.herald.client;

import static dev.herald.client.ModernPeer.error;
import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.testing.Eventually;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a client settles on an era (MCP 2026-07-28 basic/versioning, "Backward Compatibility"): a
 * client set to "latest" probes with {@code server/discover} and falls back to {@code initialize}
 * whatever form a handshake-era server's answer takes; {@code -32022} steers it to a mutual
 * version; a pinned era never changes; a handshake-first client refused by a modern-only server
 * goes modern.
 */
@Timeout(30)
class EraNegotiationTest {

  /**
   * A client with the default probe timeout: every peer here answers {@code server/discover} but
   * one, and a short timeout would make a slow first answer (a cold JVM on a busy machine) look
   * like no answer at all.
   */
  private static McpClient.Builder client() {
    return McpClient.builder().info("negotiator", "2.0");
  }

  @Test
  void aLatestClientSpeaks2026WithAServerThatAnswersDiscoverAndNeverSendsTheHandshake()
      throws Exception {
    ModernPeer peer = new ModernPeer();
    try (McpClient c = client().connect(peer.clientEnd())) {
      assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
      assertThat(c.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      assertThat(c.serverInfo().name()).isEqualTo("peer");
      assertThat(c.instructions()).isEqualTo("be kind");
      assertThat(c.serverCapabilities().toolsListChanged()).isTrue();
      assertThat(c.discoverResult()).isPresent();
      assertThat(c.initializeResult()).isEmpty();

      JsonRpcMessage.Request probe = peer.requests().get(0);
      assertThat(probe.method()).isEqualTo(McpMethods.SERVER_DISCOVER);
      ObjectNode meta = (ObjectNode) probe.params().get("_meta");
      assertThat(MetaKeys.protocolVersion(meta)).isEqualTo("2026-07-28");
      assertThat(MetaKeys.clientCapabilities(meta)).isNotNull();
      assertThat(MetaKeys.clientInfo(meta).name()).isEqualTo("negotiator");

      c.ping(); // 2026-07-28 has no ping: a discover round trip
      assertThat(peer.requests(McpMethods.PING)).isEmpty();
      assertThat(peer.requests(McpMethods.INITIALIZE)).isEmpty();
      assertThat(peer.notifications(McpMethods.INITIALIZED)).isEmpty();
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).hasSize(2);
    }
  }

  private static final String NO_ANSWER = "no answer at all";

  static Stream<Arguments> handshakeEraAnswers() {
    return Stream.of(
        Arguments.of(
            "method not found",
            answer(r -> error(r, ErrorCodes.METHOD_NOT_FOUND, "Method not found", null))),
        Arguments.of(
            "not initialized",
            answer(r -> error(r, ErrorCodes.INVALID_REQUEST, "Server not initialized", null))),
        Arguments.of(
            "invalid params",
            answer(r -> error(r, ErrorCodes.INVALID_PARAMS, "Invalid params", null))),
        Arguments.of(
            "an implementation-defined code",
            answer(r -> error(r, -32000, "Bad Request: No valid session ID provided", null))),
        Arguments.of(
            "HTTP 400 without a JSON-RPC body, as the HTTP transport reports it",
            answer(r -> error(r, ErrorCodes.INTERNAL_ERROR, "HTTP 400 from http://x/mcp", null))),
        Arguments.of("an empty result", answer(r -> result(r, "{}"))),
        Arguments.of(NO_ANSWER, answer(r -> null)));
  }

  private static Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> answer(
      Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> f) {
    return f;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("handshakeEraAnswers")
  void aLatestClientFallsBackToTheHandshakeWhateverFormTheHandshakeEraAnswerTakes(
      String form, Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> discover)
      throws Exception {
    ModernPeer peer = ModernPeer.legacy(discover);
    McpClient.Builder builder = client();
    if (form.equals(NO_ANSWER)) {
      builder.discoverTimeout(Duration.ofMillis(500)); // the one form that waits it out
    }
    try (McpClient c = builder.connect(peer.clientEnd())) {
      assertThat(c.era()).as(form).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(c.protocolVersion()).isEqualTo(ProtocolVersion.V2025_11_25);
      assertThat(c.serverInfo().name()).isEqualTo("legacy");
      assertThat(c.initializeResult()).isPresent();
      assertThat(peer.requests().stream().map(JsonRpcMessage.Request::method).limit(2))
          .containsExactly(McpMethods.SERVER_DISCOVER, McpMethods.INITIALIZE);
      Eventually.eventually(
          () -> peer.notifications(McpMethods.INITIALIZED).size() == 1, "initialized sent");
      c.ping();
      assertThat(peer.requests(McpMethods.PING)).hasSize(1);
      c.tools(); // handshake-era requests carry no 2026 _meta
      ObjectNode params = peer.requests(McpMethods.TOOLS_LIST).get(0).params();
      assertThat(params == null || !params.has("_meta")).isTrue();
    }
  }

  @Test
  void unsupportedVersionNamingOnlyHandshakeVersionsSendsTheClientToTheNewestMutualOne()
      throws Exception {
    ModernPeer peer =
        ModernPeer.legacy(r ->
            error(
                r,
                ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                "{\"supported\":[\"2025-03-26\",\"2025-06-18\"],\"requested\":\"2026-07-28\"}"));
    peer.on(
        McpMethods.INITIALIZE,
        r ->
            result(
                r,
                ModernPeer.INITIALIZE.replace(
                    "\"protocolVersion\":\"2025-11-25\"", "\"protocolVersion\":\"2025-06-18\"")));
    try (McpClient c = client().connect(peer.clientEnd())) {
      assertThat(c.protocolVersion()).isEqualTo(ProtocolVersion.V2025_06_18);
      assertThat(
              peer.requests(McpMethods.INITIALIZE)
                  .get(0)
                  .params()
                  .get("protocolVersion")
                  .stringValue())
          .isEqualTo("2025-06-18");
    }
  }

  @Test
  void unsupportedVersionNamingTheRefusedVersionIsRetriedWithItOnceOnly() throws Exception {
    AtomicInteger refusals = new AtomicInteger();
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.SERVER_DISCOVER,
        r ->
            refusals.getAndIncrement() == 0
                ? error(
                    r,
                    ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                    "Unsupported protocol version",
                    "{\"supported\":[\"2026-07-28\"],\"requested\":\"2026-07-28\"}")
                : result(r, ModernPeer.DISCOVER));
    try (McpClient c = client().connect(peer.clientEnd())) {
      assertThat(c.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).hasSize(2);
    }

    ModernPeer stubborn = new ModernPeer();
    stubborn.on(
        McpMethods.SERVER_DISCOVER,
        r ->
            error(
                r,
                ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                "{\"supported\":[\"2026-07-28\"],\"requested\":\"2026-07-28\"}"));
    assertThatThrownBy(() -> client().connect(stubborn.clientEnd()))
        .isInstanceOf(McpException.class)
        .satisfies(e -> assertThat(((McpException) e).code()).isEqualTo(-32022));
    assertThat(stubborn.requests(McpMethods.SERVER_DISCOVER)).hasSize(2);
  }

  @Test
  void unsupportedVersionWithNoMutualVersionFailsTheConnectWithTheServersError() {
    ModernPeer peer =
        ModernPeer.legacy(r ->
            error(
                r,
                ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                "{\"supported\":[\"2099-01-01\"],\"requested\":\"2026-07-28\"}"));
    assertThatThrownBy(() -> client().connect(peer.clientEnd()))
        .isInstanceOf(McpException.class)
        .satisfies(e -> assertThat(((McpException) e).code()).isEqualTo(-32022));
    assertThat(peer.requests(McpMethods.INITIALIZE)).isEmpty();
  }

  @Test
  void aRecognisedModernErrorKeepsTheClientFromFallingBack() {
    ModernPeer peer =
        ModernPeer.legacy(
            r -> error(r, ErrorCodes.HEADER_MISMATCH, "Header mismatch: Mcp-Method", null));
    assertThatThrownBy(() -> client().connect(peer.clientEnd()))
        .isInstanceOf(McpException.class)
        .satisfies(e -> assertThat(((McpException) e).code()).isEqualTo(-32020));
    assertThat(peer.requests(McpMethods.INITIALIZE)).isEmpty();
  }

  @Test
  void aClientPinnedTo2026FailsAgainstAHandshakeEraServerWithoutSendingInitialize() {
    ModernPeer peer =
        ModernPeer.legacy(r -> error(r, ErrorCodes.METHOD_NOT_FOUND, "Method not found", null));
    assertThatThrownBy(
            () -> client().protocolVersion(ProtocolVersion.V2026_07_28).connect(peer.clientEnd()))
        .isInstanceOf(McpException.class)
        .hasMessageContaining("does not speak 2026-07-28");
    assertThat(peer.requests(McpMethods.INITIALIZE)).isEmpty();
  }

  @Test
  void aClientPinnedToAHandshakeVersionNeverProbesWithDiscover() throws Exception {
    ModernPeer peer = ModernPeer.legacy(r -> result(r, ModernPeer.DISCOVER));
    try (McpClient c =
        client().protocolVersion(ProtocolVersion.V2025_11_25).connect(peer.clientEnd())) {
      assertThat(c.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).isEmpty();
      assertThat(peer.requests().get(0).method()).isEqualTo(McpMethods.INITIALIZE);
    }
  }

  @Test
  void aHandshakeFirstClientRefusedByAModernOnlyServerGoesModern() throws Exception {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.INITIALIZE,
        r ->
            error(
                r,
                ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "This server speaks only 2026-07-28",
                "{\"supported\":[\"2026-07-28\"],\"requested\":\"2025-11-25\"}"));
    try (McpClient c = client().eras(EraPreference.HANDSHAKE_FIRST).connect(peer.clientEnd())) {
      assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
      assertThat(peer.requests().stream().map(JsonRpcMessage.Request::method).toList())
          .containsExactly(McpMethods.INITIALIZE, McpMethods.SERVER_DISCOVER);
    }
  }

  @Test
  void aHandshakeOnlyClientRefusedByAModernOnlyServerFailsWithTheServersError() {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.INITIALIZE,
        r ->
            error(
                r,
                ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
                "This server speaks only 2026-07-28",
                "{\"supported\":[\"2026-07-28\"],\"requested\":\"2025-11-25\"}"));
    assertThatThrownBy(() -> client().eras(EraPreference.HANDSHAKE_ONLY).connect(peer.clientEnd()))
        .isInstanceOf(McpException.class);
    assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).isEmpty();
  }

  @Test
  void theTransportIsToldEachVersionBeforeItsFirstRequest() throws Exception {
    ModernPeer peer =
        ModernPeer.legacy(r -> error(r, ErrorCodes.METHOD_NOT_FOUND, "Method not found", null));
    VersionRecordingTransport t = new VersionRecordingTransport(peer.clientEnd());
    try (McpClient c = client().connect(t)) {
      assertThat(t.versions)
          .containsExactly(ProtocolVersion.V2026_07_28, ProtocolVersion.V2025_11_25);
    }
  }

  @Test
  void aTransportThatCannotCarry2026IsNotProbedWithIt() throws Exception {
    ModernPeer peer = ModernPeer.legacy(r -> result(r, ModernPeer.DISCOVER));
    VersionRecordingTransport t = new VersionRecordingTransport(peer.clientEnd());
    t.modern = false;
    try (McpClient c = client().connect(t)) {
      assertThat(c.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(peer.requests(McpMethods.SERVER_DISCOVER)).isEmpty();
    }
  }

  @Test
  void inThe2026EraAServersRequestIsNeverAnswered() throws Exception {
    ModernPeer peer = new ModernPeer();
    try (McpClient c =
        client()
            .sampling((p, ctx) -> {
              throw new AssertionError("never asked");
            })
            .connect(peer.clientEnd())) {
      peer.send(
          new JsonRpcMessage.Request(dev.herald.wire.RequestId.of(77), McpMethods.PING, null));
      c.tools(); // a round trip after the request: the client has read it
      assertThat(peer.responses()).isEmpty();
    }
  }

  /** Records {@link dev.herald.transport.Transport#useProtocolVersion} calls. */
  static final class VersionRecordingTransport implements dev.herald.transport.Transport {
    final List<ProtocolVersion> versions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final dev.herald.transport.Transport inner;
    volatile boolean modern = true;

    VersionRecordingTransport(dev.herald.transport.Transport inner) {
      this.inner = inner;
    }

    @Override
    public boolean useProtocolVersion(ProtocolVersion version) {
      if (!version.handshake() && !modern) {
        return false;
      }
      versions.add(version);
      return true;
    }

    @Override
    public void start(Receiver receiver) {
      inner.start(receiver);
    }

    @Override
    public void send(JsonRpcMessage message, dev.herald.wire.@Nullable RequestId relatedTo) {
      inner.send(message, relatedTo);
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
