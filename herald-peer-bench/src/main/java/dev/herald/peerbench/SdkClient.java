package dev.herald.peerbench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The official Java SDK 2.1.0's {@link McpSyncClient} over its {@link
 * HttpClientStreamableHttpTransport}, with the SDK's defaults.
 */
final class SdkClient implements ClientMain.Client {
  private final McpSyncClient client;
  private final LongAdder progress;
  private final AtomicLong tokens = new AtomicLong();

  private SdkClient(McpSyncClient client, LongAdder progress) {
    this.client = client;
    this.progress = progress;
  }

  static SdkClient connect(String uri) {
    URI u = URI.create(uri);
    var transport =
        HttpClientStreamableHttpTransport.builder(u.getScheme() + "://" + u.getAuthority())
            .endpoint(u.getPath())
            .build();
    LongAdder progress = new LongAdder();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .progressConsumer(p -> progress.increment())
            .build();
    client.initialize();
    return new SdkClient(client, progress);
  }

  @Override
  public void echo(String text) {
    CallToolResult r =
        client.callTool(
            CallToolRequest.builder().name("echo").arguments(Map.of("text", text)).build());
    if (r.content().isEmpty()
        || !(r.content().get(0) instanceof TextContent t)
        || !text.equals(t.text())) {
      throw new IllegalStateException("echo answered " + r);
    }
  }

  @Override
  public long progress(int count) {
    long before = progress.sum();
    client.callTool(
        CallToolRequest.builder()
            .name("progress")
            .arguments(Map.of("count", count))
            .progressToken("p" + tokens.incrementAndGet())
            .build());
    // The sync API may hand the last notifications to the consumer after the call returned:
    // the round ends when all arrived (bounded).
    long end = System.nanoTime() + 5_000_000_000L;
    while (progress.sum() - before < count && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
    return progress.sum() - before;
  }

  @Override
  public void close() {
    client.close();
  }
}
