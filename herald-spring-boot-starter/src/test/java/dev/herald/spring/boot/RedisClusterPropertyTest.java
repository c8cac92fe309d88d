package dev.herald.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.http.ClusterMember;
import dev.herald.redis.RedisCluster;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.testing.RedisProcess;
import dev.herald.transport.http.StreamableHttpClientTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With herald-redis on the class path, {@code herald.redis.uri} makes the application a node of a
 * Herald cluster on a real redis-server. (Spring Boot 4 only: Boot 3.5's BOM pins a Lettuce and
 * Netty older than herald-redis needs; herald-spring-boot3-test leaves this class out.)
 */
@Timeout(120)
class RedisClusterPropertyTest {
  @Test
  void heraldRedisUriMakesTheApplicationANodeOfARedisCluster() throws Exception {
    assumeTrue(RedisProcess.installed(), "redis-server is not installed");
    try (RedisProcess redis = RedisProcess.start();
        RunningApp app =
            RunningApp.start(TestApplication.class, "herald.redis.uri=" + redis.uri());
        McpClient client =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .connect(new StreamableHttpClientTransport(app.mcp()))) {
      assertThat(app.context().getBean(ClusterMember.class)).isInstanceOf(RedisCluster.class);
      assertThat(client.callTool("countdown", null).firstText()).isEqualTo("counted 3");
    }
  }
}
