package dev.herald.peerbench;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.jetty.client.JettyStreamableHttpClientTransport;
import dev.herald.session.CallOptions;
import dev.herald.transport.Transport;
import dev.herald.transport.http.Http1Client;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's {@link McpClient}, handshake era (2025-11-25), over its Streamable HTTP transport on
 * the JDK {@code HttpClient} ({@link StreamableHttpClientTransport}), on herald-core's {@link
 * Http1Client} ({@code herald-http1}: the same transport, each exchange on its sending thread)
 * or, for {@code herald-jetty}, over herald-jetty-client's transport on Jetty's HTTP client
 * ({@link JettyStreamableHttpClientTransport}).
 */
final class HeraldClient implements ClientMain.Client {
  /** The HTTP client under Herald's transport. */
  enum Engine {
    JDK,
    JETTY,
    HTTP1
  }

  private final McpClient client;
  private final @Nullable Http1Client http;

  private HeraldClient(McpClient client, @Nullable Http1Client http) {
    this.client = client;
    this.http = http;
  }

  static HeraldClient connect(String uri, Engine engine) throws Exception {
    URI u = URI.create(uri);
    Http1Client http = engine == Engine.HTTP1 ? Http1Client.newClient() : null;
    Transport transport =
        switch (engine) {
          case JETTY -> JettyStreamableHttpClientTransport.builder().uri(u).build();
          case JDK -> StreamableHttpClientTransport.builder().uri(u).build();
          case HTTP1 ->
              StreamableHttpClientTransport.builder()
                  .uri(u)
                  .httpClient(java.util.Objects.requireNonNull(http))
                  .build();
        };
    return new HeraldClient(
        McpClient.builder()
            .info("peer-bench", "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(transport),
        http);
  }

  @Override
  public void echo(String text) throws Exception {
    ObjectNode args = JsonNodeFactory.instance.objectNode().put("text", text);
    CallToolResult r = client.callTool("echo", args);
    if (!text.equals(r.firstText())) {
      throw new IllegalStateException("echo answered " + r);
    }
  }

  @Override
  public long progress(int count) throws Exception {
    LongAdder received = new LongAdder();
    ObjectNode args = JsonNodeFactory.instance.objectNode().put("count", count);
    client.callTool(
        "progress",
        args,
        CallOptions.builder()
            .progress(u -> received.increment())
            .renderInterval(Duration.ZERO)
            .build());
    return received.sum();
  }

  @Override
  public void close() {
    client.close();
    if (http != null) {
      http.close();
    }
  }
}
