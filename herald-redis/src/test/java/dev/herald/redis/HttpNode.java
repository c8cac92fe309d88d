package dev.herald.redis;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import java.net.URI;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One Herald node of a cluster inside the test's JVM: a server, its membership of the cluster on a
 * real Redis, and its Streamable HTTP endpoint on 127.0.0.1; {@link #close} ends all three.
 */
class HttpNode implements AutoCloseable {
  final McpServer mcp;
  final RedisCluster cluster;
  final McpHttpServer http;

  /** {@code mcp} served by a node on {@code redisUri}, its endpoint set up by {@code endpoint}. */
  HttpNode(McpServer mcp, String redisUri, UnaryOperator<McpHttpServer.Builder> endpoint) {
    this.mcp = mcp;
    this.cluster = RedisCluster.connect(URI.create(redisUri));
    this.http = cluster.apply(endpoint.apply(McpHttpServer.builder().server(mcp))).build().start();
  }

  HttpNode(McpServer mcp, String redisUri) {
    this(mcp, redisUri, b -> b);
  }

  /** A raw client of this node, in {@code session} (none: null). */
  RawHttpClient client(@Nullable String session) {
    RawHttpClient c = new RawHttpClient(http.uri());
    c.session = session;
    return c;
  }

  @Override
  public void close() {
    http.close();
    cluster.close();
    mcp.close();
  }
}
