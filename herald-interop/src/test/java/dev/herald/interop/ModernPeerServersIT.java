package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.client.Subscription;
import dev.herald.client.SubscriptionListener;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.Transport;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Herald's client, configured for the latest protocol (its default), against real 2026-07-28
 * servers: the TypeScript SDK v2 (interop/ts2/server.mjs) and the official Java SDK 2.2.0's modern
 * server (herald-interop-jsdk22), each over stdio and Streamable HTTP on 127.0.0.1. The client
 * lands in the 2026-07-28 era (the Java SDK's modern server refuses {@code initialize}, so there is
 * no handshake to fall back to), calls tools with progress, answers an {@code input_required}
 * round with its elicitation handler, and gets list changes and resource updates through {@code
 * subscriptions/listen}. Against the TypeScript SDK 1.32.2 server it falls back to the handshake.
 */
@Timeout(90)
class ModernPeerServersIT {

  /** One 2026-07-28 peer server and the way to reach it. */
  enum Peer {
    TS2_STDIO,
    TS2_HTTP,
    JSDK22_STDIO,
    JSDK22_HTTP;

    /** The running peer: a transport to it, and the HTTP server process to stop, if any. */
    record Running(Transport transport, PeerProcess.@Nullable HttpServer http, String name)
        implements AutoCloseable {
      @Override
      public void close() throws InterruptedException {
        if (http != null) {
          http.close();
        }
      }
    }

    Running start() throws Exception {
      return switch (this) {
        case TS2_STDIO -> new Running(Ts2Peer.stdioServer(), null, "ts2-peer");
        case JSDK22_STDIO -> new Running(Jsdk22Peer.stdioServer(), null, "jsdk22-peer");
        case TS2_HTTP -> http(Ts2Peer.httpServer(), "ts2-peer");
        case JSDK22_HTTP -> http(Jsdk22Peer.httpServer(), "jsdk22-peer");
      };
    }

    private static Running http(PeerProcess.HttpServer server, String name) {
      return new Running(new StreamableHttpClientTransport(server.uri()), server, name);
    }
  }

  private static McpClient connect(Peer.Running peer) throws InterruptedException {
    return McpClient.builder()
        .elicitation((params, ctx) ->
            ElicitResult.accept(
                McpJson.object().put("username", "herald-user").put("email", "h@example.com")))
        .connect(peer.transport());
  }

  @ParameterizedTest
  @EnumSource(Peer.class)
  void theLatestClientSpeaks2026WithTheServerAndCallsToolsWithProgress(Peer which)
      throws Exception {
    try (Peer.Running peer = which.start();
        McpClient client = connect(peer)) {
      assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      assertThat(client.protocolVersion().era()).isEqualTo(ProtocolVersion.Era.MODERN);
      assertThat(client.serverInfo().name()).isEqualTo(peer.name());
      assertThat(client.tools())
          .extracting(Tool::name)
          .contains("echo", "slow", "test_elicitation", "touch", "update_resource");
      assertThat(client.callTool("echo", TypeScriptServerIT.args("text", "hi")).firstText())
          .isEqualTo("hi");

      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult slow =
          client.callTool(
              "slow",
              TypeScriptServerIT.args("steps", 5, "delayMs", 20),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(slow.firstText()).isEqualTo("completed 5 steps");
      assertThat(updates)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
      assertThat(updates).allSatisfy(u -> assertThat(u.total()).isEqualTo(5.0));

      ContentBlock prompt =
          client.getPrompt("test_simple_prompt", null).messages().get(0).content();
      assertThat(prompt).isInstanceOf(ContentBlock.Text.class);
      assertThat(((ContentBlock.Text) prompt).text())
          .isEqualTo("This is a simple prompt for testing.");
      ResourceContents counter = client.readResource("demo://counter").contents().get(0);
      assertThat(counter).isInstanceOf(ResourceContents.Text.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Peer.class)
  void anInputRequiredRoundIsAnsweredByTheElicitationHandlerAndTheCallIsRetried(Peer which)
      throws Exception {
    try (Peer.Running peer = which.start();
        McpClient client = connect(peer)) {
      assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      String answer =
          client
              .callTool("test_elicitation", TypeScriptServerIT.args("message", "who are you?"))
              .firstText();
      assertThat(answer).startsWith("User response: action=accept").contains("herald-user");
    }
  }

  @ParameterizedTest
  @EnumSource(Peer.class)
  void listChangesAndResourceUpdatesArriveThroughListen(Peer which) throws Exception {
    try (Peer.Running peer = which.start();
        McpClient client = connect(peer)) {
      assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      CountDownLatch changed = new CountDownLatch(1);
      CountDownLatch updated = new CountDownLatch(1);
      List<McpClient.Area> areas = new CopyOnWriteArrayList<>();
      List<String> uris = new CopyOnWriteArrayList<>();
      int before = client.tools().size();
      try (Subscription listen =
          client.listen(
              new SubscriptionFilter(true, null, null, List.of("demo://counter"), null),
              new SubscriptionListener() {
                @Override
                public void listChanged(McpClient.Area area) {
                  areas.add(area);
                  changed.countDown();
                }

                @Override
                public void resourceUpdated(ResourceUpdatedParams u) {
                  uris.add(u.uri());
                  updated.countDown();
                }
              })) {
        // Only once the listen is acknowledged does the server send on it.
        SubscriptionFilter honoured = listen.honoured().get(10, TimeUnit.SECONDS);
        assertThat(honoured.wantsToolsListChanged()).isTrue();
        assertThat(honoured.resourceSubscriptionsOrEmpty()).containsExactly("demo://counter");
        client.callTool("touch", TypeScriptServerIT.args("area", "tools"));
        assertThat(changed.await(10, TimeUnit.SECONDS)).as("tools/list_changed arrived").isTrue();
        assertThat(client.tools()).hasSize(before + 1);
        client.callTool("update_resource", TypeScriptServerIT.args("uri", "demo://counter"));
        assertThat(updated.await(10, TimeUnit.SECONDS)).as("resources/updated arrived").isTrue();
      }
      assertThat(areas).containsOnly(McpClient.Area.TOOLS);
      assertThat(uris).containsOnly("demo://counter");
    }
  }

  @ParameterizedTest
  @EnumSource(Peer.class)
  void aResourceSubscriptionDeliversTheServersUpdatesInEitherEra(Peer which) throws Exception {
    try (Peer.Running peer = which.start();
        McpClient client = connect(peer)) {
      assertThat(client.protocolVersion()).isEqualTo(ProtocolVersion.V2026_07_28);
      CountDownLatch updated = new CountDownLatch(1);
      List<String> uris = new CopyOnWriteArrayList<>();
      try (ResourceSubscription ignored =
          client.subscribe(
              "demo://counter",
              u -> {
                uris.add(u.uri());
                updated.countDown();
              })) {
        client.callTool("update_resource", TypeScriptServerIT.args("uri", "demo://counter"));
        assertThat(updated.await(10, TimeUnit.SECONDS)).as("resources/updated arrived").isTrue();
        assertThat(uris).containsOnly("demo://counter");
      }
    }
  }

  @Test
  void againstTheJavaSdk21ServerTheLatestClientFallsBackToTheHandshakeOverStdioAndHttp()
      throws Exception {
    try (McpClient client = McpClient.builder().connect(JavaSdkPeer.stdioServer())) {
      assertThat(client.protocolVersion().era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(client.serverInfo().name()).isEqualTo("java-sdk-peer");
      assertThat(client.tools()).isNotEmpty();
    }
    try (JavaSdkPeer.HttpServer sdk = JavaSdkPeer.httpServer();
        McpClient client =
            McpClient.builder().connect(new StreamableHttpClientTransport(sdk.uri()))) {
      assertThat(client.protocolVersion().era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(client.tools()).isNotEmpty();
    }
  }

  @Test
  void againstTheTypeScriptSdk1ServerTheLatestClientFallsBackToTheHandshakeOverStdioAndHttp()
      throws Exception {
    try (McpClient client = McpClient.builder().connect(TsPeer.stdioServer())) {
      assertThat(client.protocolVersion().era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(client.serverInfo().name()).isEqualTo("ts-peer");
      assertThat(client.callTool("echo", TypeScriptServerIT.args("text", "old friend")).firstText())
          .isEqualTo("old friend");
    }
    try (TsPeer.HttpServer ts = TsPeer.httpServer();
        McpClient client =
            McpClient.builder().connect(new StreamableHttpClientTransport(ts.uri()))) {
      assertThat(client.protocolVersion().era()).isEqualTo(ProtocolVersion.Era.LEGACY);
      assertThat(client.callTool("echo", TypeScriptServerIT.args("text", "over http")).firstText())
          .isEqualTo("over http");
    }
  }
}
