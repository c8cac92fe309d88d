package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.wire.LoggingLevel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.node.ObjectNode;

/**
 * Markers for Herald's client against a peer server: to show that a notification does <em>not</em>
 * come, a test asks the peer for a later one that travels the same stream and waits for it, instead
 * of pausing. Herald's client runs its listeners in arrival order, so once the marker's listener ran,
 * every notification that arrived before it has been handed out. Both demo servers (interop/ts and
 * {@link JavaSdkServerMain}) have the tools used here.
 */
final class Markers {
  private Markers() {}

  /**
   * A critical log from a call of its own ({@code emit_logs}): on stdio it follows everything the
   * server wrote before; over HTTP it follows what earlier calls sent on their own streams. Returns
   * once Herald's client delivered it.
   */
  static void criticalLog(McpClient client) throws InterruptedException {
    CountDownLatch seen = new CountDownLatch(1);
    client.onLog(m -> {
      if (m.level() == LoggingLevel.CRITICAL) {
        seen.countDown();
      }
    });
    client.callTool("emit_logs", args("count", 1, "level", "critical"));
    assertThat(seen.await(10, TimeUnit.SECONDS)).as("the marker log arrived").isTrue();
  }

  /**
   * A {@code notifications/tools/list_changed} from {@code touch}: over HTTP a server sends it on the
   * standing GET stream, where session-level notifications such as {@code resources/updated} go.
   */
  static void toolsListChanged(McpClient client) throws InterruptedException {
    CountDownLatch seen = new CountDownLatch(1);
    client.onListChanged(McpClient.Area.TOOLS, seen::countDown);
    client.callTool("touch", args());
    assertThat(seen.await(10, TimeUnit.SECONDS))
        .as("the marker tools/list_changed arrived")
        .isTrue();
  }

  /** A {@code notifications/resources/updated} for {@code uri}, from {@code update_resource}, on a new subscription. */
  static void resourceUpdated(McpClient client, String uri) throws InterruptedException {
    CountDownLatch seen = new CountDownLatch(1);
    try (ResourceSubscription marker = client.subscribe(uri, u -> seen.countDown())) {
      client.callTool("update_resource", args());
      assertThat(seen.await(10, TimeUnit.SECONDS))
          .as("the marker resources/updated arrived")
          .isTrue();
    }
  }

  private static ObjectNode args(Object... kv) {
    return TypeScriptServerIT.args(kv);
  }
}
