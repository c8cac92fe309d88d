package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Role;
import dev.herald.wire.Root;
import dev.herald.wire.SamplingContent;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client over its {@link StreamableHttpClientTransport} against a server built with the
 * official MCP Java SDK 2.1.0 over the SDK's Streamable HTTP servlet
 * ({@code HttpServletStreamableServerTransportProvider}) hosted in Jetty 12 ee10 on 127.0.0.1:0:
 * {@link JavaSdkServerMain} {@code --http}, a subprocess on the SDK's own Jackson 3.1.4 (see
 * {@link JavaSdkPeer}; in-process, on Herald's Jackson, the SDK cannot serialize
 * {@code elicitation/create}). One server process per test, so counters and tool lists start fresh.
 */
@Timeout(180) // a fresh SDK server JVM per test: slow to start when the cores are busy
class JavaSdkHttpServerIT {

  private JavaSdkPeer.HttpServer server;
  private final List<ObservedHttpClient> clients = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startServer() throws Exception {
    server = JavaSdkPeer.httpServer();
  }

  @AfterEach
  void stopServer() throws Exception {
    clients.forEach(HttpClient::close);
    if (server != null) {
      server.close();
    }
  }

  /** Herald's HTTP client transport to the SDK server, over an HttpClient the test can watch. */
  private StreamableHttpClientTransport transport() {
    ObservedHttpClient http =
        new ObservedHttpClient(
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(r -> Thread.ofVirtual().start(r))
                .build());
    clients.add(http);
    return StreamableHttpClientTransport.builder().uri(server.uri()).httpClient(http).build();
  }

  /** The most recent transport's HttpClient. */
  private ObservedHttpClient http() {
    return clients.get(clients.size() - 1);
  }

  /** Waits until the SDK's servlet holds this test's standing GET stream (Herald opens it after initialize). */
  private void awaitStandingStream() throws InterruptedException {
    // The observer notes the id when the JDK client completes the initialize exchange's future (on
    // another thread), which can come after the transport handled the answer and connect returned.
    eventually(() -> !http().sessionIds.isEmpty(), "a session id from the SDK server");
    server.awaitStandingStream(http().sessionIds.get(0));
  }

  static ObjectNode args(Object... kv) {
    return TypeScriptServerIT.args(kv);
  }

  @Test
  void heraldInitializesWithTheSdkServerOverHttpAndGetsASession() throws Exception {
    try (McpClient client = McpClient.builder().connect(transport())) {
      assertThat(client.serverInfo().name()).isEqualTo("java-sdk-peer");
      assertThat(client.serverCapabilities().resourcesSubscribe()).isTrue();
      assertThat(client.tools())
          .extracting(Tool::name)
          .contains(
              "echo",
              "slow",
              "emit_logs",
              "touch",
              "update_resource",
              "ask_sampling",
              "ask_elicitation",
              "ask_roots");
      assertThat(client.callTool("echo", args("text", "over http")).firstText())
          .isEqualTo("over http");
      client.ping();
      // The SDK's servlet issued a session id, and it accepted Herald's standing GET stream.
      eventually(() -> !http().sessionIds.isEmpty(), "a session id from the SDK server");
      assertThat(http().sessionIds)
          .allSatisfy(id -> assertThat(id).isEqualTo(http().sessionIds.get(0)));
      awaitStandingStream();
    }
  }

  @Test
  void progressOverTheSdksRequestStreamsMovesForwardOnlyEndsAtTheTotalAndReachesOnlyItsOwnCall()
      throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(transport())) {
      List<ProgressUpdate> five = new CopyOnWriteArrayList<>();
      List<ProgressUpdate> seven = new CopyOnWriteArrayList<>();
      // Two calls at once, each on its own POST's SSE stream: each update must find its own call.
      ToolCallHandle a =
          client.callToolAsync(
              "slow",
              args("steps", 5, "delayMs", 30),
              CallOptions.builder().progress(five::add).renderInterval(Duration.ZERO).build());
      ToolCallHandle b =
          client.callToolAsync(
              "slow",
              args("steps", 7, "delayMs", 20),
              CallOptions.builder().progress(seven::add).renderInterval(Duration.ZERO).build());
      assertThat(a.await().firstText()).isEqualTo("completed 5 steps");
      assertThat(b.await().firstText()).isEqualTo("completed 7 steps");
      assertThat(five)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
      assertThat(five).allSatisfy(u -> assertThat(u.total()).isEqualTo(5.0));
      assertThat(seven)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
      assertThat(seven).allSatisfy(u -> assertThat(u.total()).isEqualTo(7.0));
      assertThat(five.get(4).message()).isEqualTo("step 5 of 5");
      for (ToolCallHandle h : List.of(a, b)) {
        ProgressRecord r = h.progressRecord().orElseThrow();
        assertThat(r.rejected()).as("nothing refused").isEmpty();
        assertThat(r.terminal()).isEqualTo(ProgressRecord.Terminal.RESPONSE);
      }
      // Every update came before its response, on a stream Herald could tie to the call.
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.UNKNOWN)).isZero();
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.LATE)).isZero();
    }
  }

  @Test
  void cancellingASlowCallFailsItAtOnceAndTheSessionStaysUsable() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(transport())) {
      CountDownLatch started = new CountDownLatch(2);
      ToolCallHandle call =
          client.callToolAsync(
              "slow",
              // 12 s of work: long enough that "failed at once" cannot be the server's answer even
              // when the machine's cores are busy, short enough for the late answer to be seen
              args("steps", 240, "delayMs", 50),
              CallOptions.builder()
                  .progress(u -> started.countDown())
                  .renderInterval(Duration.ZERO)
                  .build());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(call.cancel("user pressed cancel")).isTrue();
      assertThatThrownBy(call::await).isInstanceOf(CancelledException.class);
      assertThat(events(client).responsesIgnored())
          .as("failed at once, not when the server answered")
          .isZero();
      client.ping();
      assertThat(client.callTool("echo", args("text", "after")).firstText()).isEqualTo("after");
      // notifications/cancelled went out as its own POST, which the SDK's servlet accepted.
      eventually(() -> http().cancelPosts.get() == 1, "the notifications/cancelled POST");
      assertThat(http().cancelStatus).containsExactly(202);

      // SDK limitation (java-sdk #130, 2.1.0): the server ignores notifications/cancelled and a
      // tool handler cannot observe it, so the loop runs to the end (~12 s) and the SDK answers
      // on the call's SSE stream. Herald drops that answer as late instead of handing it to anyone.
      eventually(
          Duration.ofSeconds(40),
          () -> events(client).responsesIgnored() == 1,
          "the SDK's late answer to the cancelled call");
      assertThat(call.result()).isCompletedExceptionally();
      assertThat(client.callTool("echo", args("text", "still here")).firstText())
          .isEqualTo("still here");
    }
  }

  @Test
  void logsAtOrAboveTheSessionLevelReachTheLogListenerInOrder() throws Exception {
    List<LoggingMessageParams> logs = new CopyOnWriteArrayList<>();
    try (McpClient client = McpClient.builder().onLog(logs::add).connect(transport())) {
      assertThat(client.serverCapabilities().logging()).isNotNull();
      client.setLoggingLevel(LoggingLevel.INFO);
      client.callTool("emit_logs", args("count", 2, "level", "debug"));
      client.callTool("emit_logs", args("count", 3, "level", "info"));
      // Sent through the call's exchange, so they ride the call's SSE stream before its response;
      // log listeners run in arrival order on the client's listener thread, so wait for them there.
      eventually(() -> logs.size() >= 3, "the three info logs reached the listener");
      assertThat(logs)
          .extracting(m -> m.data().stringValue())
          .containsExactly("log message 1 of 3", "log message 2 of 3", "log message 3 of 3");
      client.setLoggingLevel(LoggingLevel.WARNING);
      client.callTool("emit_logs", args("count", 2, "level", "info"));
      client.callTool("emit_logs", args("count", 1, "level", "error"));
      Markers.criticalLog(
          client); // the earlier calls' logs, on their own streams, were delivered before it
      assertThat(logs)
          .extracting(m -> m.data().stringValue())
          .containsExactly(
              "log message 1 of 3",
              "log message 2 of 3",
              "log message 3 of 3",
              "log message 1 of 1",
              "log message 1 of 1");
      assertThat(logs)
          .extracting(LoggingMessageParams::level)
          .containsExactly(
              LoggingLevel.INFO,
              LoggingLevel.INFO,
              LoggingLevel.INFO,
              LoggingLevel.ERROR,
              LoggingLevel.CRITICAL);
      assertThat(logs).allSatisfy(m -> assertThat(m.logger()).isEqualTo("java-sdk"));
    }
  }

  @Test
  void aToolsListChangeOnTheStandingStreamMakesTheCacheStaleAndConcurrentCallersRefetchOnce()
      throws Exception {
    AtomicInteger changes = new AtomicInteger();
    try (McpClient client =
        McpClient.builder().onToolsListChanged(changes::incrementAndGet).connect(transport())) {
      List<Tool> before = client.tools();
      client.tools();
      assertThat(client.fetchCount(McpClient.Area.TOOLS)).as("served from the cache").isEqualTo(1);
      // The SDK broadcasts list changes on each session's GET stream and drops them for a session
      // without one, so wait until the servlet has accepted Herald's standing stream.
      awaitStandingStream();
      client.callTool("touch", args());
      eventually(() -> changes.get() == 1, "tools/list_changed");
      assertThat(client.stale(McpClient.Area.TOOLS)).isTrue();
      for (List<Tool> listed : ConcurrentListing.tools(client, 8)) {
        assertThat(listed).hasSize(before.size() + 1).extracting(Tool::name).contains("dummy_1");
      }
      assertThat(client.fetchCount(McpClient.Area.TOOLS))
          .as("one refetch for eight callers")
          .isEqualTo(2);
      assertThat(client.callTool("dummy_1", args()).firstText()).isEqualTo("dummy");
      // A later notification on the same GET stream: a second list_changed would have come first.
      Markers.resourceUpdated(client, JavaSdkServerMain.COUNTER_URI);
      assertThat(changes.get()).as("one touch, one notification").isEqualTo(1);
    }
  }

  @Test
  void aResourceSubscriptionDeliversTheSdksUpdatesForThatUriUntilClosed() throws Exception {
    try (McpClient client = McpClient.builder().connect(transport())) {
      assertThat(client.serverCapabilities().resourcesSubscribe()).isTrue();
      awaitStandingStream(); // resources/updated is a session-level notification: the GET stream
      List<ResourceUpdatedParams> updates = new CopyOnWriteArrayList<>();
      ResourceSubscription sub = client.subscribe(JavaSdkServerMain.COUNTER_URI, updates::add);
      client.callTool("update_resource", args());
      client.callTool("update_resource", args());
      eventually(() -> updates.size() == 2, "two resources/updated");
      assertThat(updates)
          .extracting(ResourceUpdatedParams::uri)
          .containsExactly("demo://counter", "demo://counter");
      assertThat(client.readResource("demo://counter").contents())
          .singleElement()
          .satisfies(c -> assertThat(McpJson.toTree(c).get("text").stringValue()).isEqualTo("2"));
      sub.close(); // the last listener: resources/unsubscribe goes to the SDK server
      client.callTool("update_resource", args());
      Markers.toolsListChanged(client); // on the same GET stream, after any update the SDK sent
      assertThat(updates).as("none after unsubscribe").hasSize(2);
    }
  }

  @Test
  void theSdkServersSamplingElicitationAndRootsRequestsAreAnsweredByHeraldsHandlers()
      throws Exception {
    List<String> prompts = new CopyOnWriteArrayList<>();
    try (McpClient client =
        McpClient.builder()
            .sampling((params, ctx) -> {
              prompts.add(
                  McpJson.toTree(params.messages().get(0).content()).get("text").stringValue());
              return CreateMessageResult.of(
                  Role.ASSISTANT,
                  (SamplingContent) ContentBlock.text("hi from herald"),
                  "test-model",
                  CreateMessageResult.StopReason.END_TURN);
            })
            .elicitation((params, ctx) -> {
              assertThat(params.message()).isEqualTo("Your name?");
              return ElicitResult.accept(McpJson.object().put("name", "Ada"));
            })
            .roots(List.of(Root.of("file:///work", "work"), Root.of("file:///tmp", "tmp")))
            .connect(transport())) {
      // Each reverse request comes on the tool call's SSE stream; Herald POSTs the answer back.
      assertThat(client.callTool("ask_sampling", args()).firstText())
          .isEqualTo("model said: hi from herald");
      assertThat(prompts).containsExactly("hello?");
      CallToolResult elicited = client.callTool("ask_elicitation", args());
      // Herald fills the schema's default for "color" (SEP-1034) before answering.
      assertThat(elicited.firstText()).isEqualTo("accept: {color=blue, name=Ada}");
      assertThat(client.callTool("ask_roots", args()).firstText())
          .isEqualTo("file:///work,file:///tmp");
    }
  }

  /**
   * An {@link HttpClient} that passes everything on and notes what the test needs to know about
   * the HTTP exchanges themselves: the session ids the server issued and the statuses of POSTed
   * cancellations.
   */
  static final class ObservedHttpClient extends HttpClient {
    final List<String> sessionIds = new CopyOnWriteArrayList<>();
    final AtomicInteger cancelPosts = new AtomicInteger();
    final List<Integer> cancelStatus = new CopyOnWriteArrayList<>();
    private final HttpClient delegate;

    ObservedHttpClient(HttpClient delegate) {
      this.delegate = delegate;
    }

    private <T> HttpResponse<T> seen(HttpRequest request, HttpResponse<T> response) {
      response.headers().firstValue("Mcp-Session-Id").ifPresent(sessionIds::add);
      return response;
    }

    private boolean isCancel(HttpRequest request) {
      return request.method().equals("POST")
          && request.bodyPublisher().isPresent()
          && bodyOf(request).contains("\"notifications/cancelled\"");
    }

    private static String bodyOf(HttpRequest request) {
      var body = new java.io.ByteArrayOutputStream();
      var done = new CompletableFuture<Void>();
      request
          .bodyPublisher()
          .orElseThrow()
          .subscribe(
              new java.util.concurrent.Flow.Subscriber<java.nio.ByteBuffer>() {
                @Override
                public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                  s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(java.nio.ByteBuffer b) {
                  byte[] bytes = new byte[b.remaining()];
                  b.get(bytes);
                  body.writeBytes(bytes);
                }

                @Override
                public void onError(Throwable t) {
                  done.completeExceptionally(t);
                }

                @Override
                public void onComplete() {
                  done.complete(null);
                }
              });
      done.join();
      return body.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
        throws IOException, InterruptedException {
      boolean cancel = isCancel(request);
      HttpResponse<T> response = seen(request, delegate.send(request, handler));
      if (cancel) {
        cancelStatus.add(response.statusCode());
        cancelPosts.incrementAndGet();
      }
      return response;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
        HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      boolean cancel = isCancel(request);
      return delegate
          .sendAsync(request, handler)
          .thenApply(r -> {
            if (cancel) {
              cancelStatus.add(r.statusCode());
              cancelPosts.incrementAndGet();
            }
            return seen(request, r);
          });
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
        HttpRequest request,
        HttpResponse.BodyHandler<T> handler,
        HttpResponse.PushPromiseHandler<T> push) {
      return delegate.sendAsync(request, handler, push).thenApply(r -> seen(request, r));
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
      return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
      return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
      return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
      return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
      return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
      return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
      return delegate.authenticator();
    }

    @Override
    public Version version() {
      return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
      return delegate.executor();
    }

    @Override
    public void shutdownNow() {
      delegate.shutdownNow();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  /** What the client's session reported to its counting listener. */
  private static CountingEventListener events(McpClient client) {
    return (CountingEventListener) client.eventListener();
  }
}
