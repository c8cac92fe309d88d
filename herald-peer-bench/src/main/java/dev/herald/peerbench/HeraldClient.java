package dev.herald.peerbench;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.jetty.client.JettyStreamableHttpClientTransport;
import dev.herald.session.CallOptions;
import dev.herald.transport.Transport;
import dev.herald.transport.http.HttpEngine;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's {@link McpClient}, handshake era (2025-11-25), over its Streamable HTTP transport
 * ({@link StreamableHttpClientTransport}) as built by default (on herald-core's {@code
 * Http1Client}, each exchange on its sending thread, since no proxy applies to the loopback
 * server), on the JDK {@code HttpClient} ({@code herald-jdk}: the same transport with {@link
 * HttpEngine#JDK}) or, for {@code herald-jetty}, over herald-jetty-client's transport on Jetty's
 * HTTP client ({@link JettyStreamableHttpClientTransport}).
 */
final class HeraldClient implements ClientMain.Client {
  /** The HTTP client under Herald's transport. */
  enum Engine {
    DEFAULT,
    JDK,
    JETTY
  }

  private final McpClient client;

  private HeraldClient(McpClient client) {
    this.client = client;
  }

  static HeraldClient connect(String uri, Engine engine) throws Exception {
    URI u = URI.create(uri);
    Transport transport =
        switch (engine) {
          case JETTY -> JettyStreamableHttpClientTransport.builder().uri(u).build();
          case DEFAULT -> StreamableHttpClientTransport.builder().uri(u).build();
          case JDK ->
              StreamableHttpClientTransport.builder().uri(u).httpEngine(HttpEngine.JDK).build();
        };
    return new HeraldClient(
        McpClient.builder()
            .info("peer-bench", "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(transport));
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
  }
}
