package dev.herald.redis;

import dev.herald.tasks.TaskStore;
import dev.herald.tasks.contract.TaskStoreContract;
import dev.herald.testing.RedisProcess;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The task store on a real redis-server: the {@link TaskStoreContract}. */
class RedisTaskStoreTest extends TaskStoreContract {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static RedisProcess server;
  private static Redis redis;
  private static ScheduledExecutorService scheduler;
  private static ClusterNode node;

  @BeforeAll
  static void startRedis() {
    server = RedisProcess.start();
    redis = Redis.connect(RedisURI.create(server.uri()), "test:", Duration.ofSeconds(10));
    scheduler = Executors.newSingleThreadScheduledExecutor();
    node = new ClusterNode(redis, "node-a", Duration.ofSeconds(30), scheduler);
  }

  @AfterAll
  static void stopRedis() {
    if (node != null) {
      node.close();
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    if (redis != null) {
      redis.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A store of its own: a fresh key prefix (another cluster) on the shared connection. */
  @Override
  protected TaskStore newStore(int maxActivePerOwner, int maxTasks) {
    Redis r = redis.withPrefix("t" + STORES.incrementAndGet() + ":");
    return new RedisTaskStore(r, node, maxActivePerOwner, maxTasks, InstantSource.system(), null);
  }
}
