package dev.herald.interop;

import dev.herald.client.McpClient;
import dev.herald.wire.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Many callers asking one client for its tools at the same moment, each on a virtual thread. */
final class ConcurrentListing {
  private ConcurrentListing() {}

  /**
   * What {@code callers} simultaneous {@link McpClient#tools()} calls returned, each waited for at
   * most 10 s: after a list change, a client should refetch once for all of them.
   */
  static List<List<Tool>> tools(McpClient client, int callers) throws Exception {
    List<CompletableFuture<List<Tool>>> pending = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      pending.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return client.tools();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              r -> Thread.ofVirtual().start(r)));
    }
    List<List<Tool>> results = new ArrayList<>();
    for (var c : pending) {
      results.add(c.get(10, TimeUnit.SECONDS));
    }
    return results;
  }
}
