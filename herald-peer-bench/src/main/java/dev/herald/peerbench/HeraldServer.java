package dev.herald.peerbench;

import dev.herald.http.IoThreads;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.time.Duration;

/**
 * Herald as an application would serve it: an {@link McpServer} with the two tools of the fixture
 * ({@code echo}; {@code progress}, which reports {@code count} progress notifications on its call
 * and then answers) on {@link McpHttpServer} with its defaults. Two settings differ from the
 * defaults, because the scenarios need them: every progress update goes on the wire ({@code
 * progressInterval} zero; the default coalesces to one per 50 ms, which the peers do not do), and
 * the session caps fit the fan-out's 1,000 sessions from one address. The list-change debounce is
 * Herald's default.
 */
final class HeraldServer implements ServerMain.Target {
  // Herald's default I/O threads, unless the child is started with -Dpeer.heraldIoThreads=PLATFORM
  // or VIRTUAL (through -Dpeer.childJvmArgs) to compare the two.
  private final McpServer mcp;
  private final McpHttpServer http;

  HeraldServer(int maxSessions) {
    this.mcp = server();
    McpHttpServer.Builder b =
        McpHttpServer.builder()
            .server(mcp)
            .maxSessions(maxSessions)
            .maxSessionsPerClient(maxSessions);
    String io = System.getProperty("peer.heraldIoThreads");
    if (io != null) {
      b.ioThreads(IoThreads.valueOf(io));
    }
    this.http = b.build().start();
  }

  /** The fixture's server, also served over stdio by {@link HeraldStdioServer}. */
  static McpServer server() {
    return McpServer.builder()
        .info("peer-bench-herald", "1")
        .progressInterval(Duration.ZERO)
        .tool(
            Tool.builder("echo").description("Returns the text").build(),
            call -> CallToolResult.text(call.arguments().path("text").asString("")))
        .tool(
            Tool.builder("progress").description("Sends count progress notifications").build(),
            call -> {
              int n = call.arguments().path("count").asInt(0);
              ProgressReporter p = call.context().progress();
              Double total = (double) n;
              for (int i = 1; i <= n; i++) {
                p.report(i, total, null);
              }
              return CallToolResult.text("sent " + n);
            })
        .build();
  }

  @Override
  public int port() {
    return http.port();
  }

  @Override
  public void trigger(int k) {
    mcp.addTool(
        Tool.builder("tool-" + k).description("added by trigger " + k).build(),
        call -> CallToolResult.text("k"));
  }

  @Override
  public void close() {
    http.close();
  }
}
