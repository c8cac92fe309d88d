package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.auth.Principal;
import dev.herald.client.McpClient;
import dev.herald.internal.session.EngineAccess;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.Tool;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Per-entry scopes in the method table's authorization step, below any HTTP endpoint: a request
 * whose principal lacks a tool's scopes does not see the tool and is refused (-32600) before the
 * handler runs; a request without a principal (stdio, an open endpoint) is not affected. The
 * principal is set the way a transport sets it, through the engine, before the frames arrive.
 */
class ScopedEntriesTest {
  private final AtomicInteger adminRuns = new AtomicInteger();
  private final McpServer server =
      McpServer.builder()
          .tool(
              Tool.builder("whoami").build(),
              call ->
                  CallToolResult.text(
                      call.context().principal().map(Principal::subject).orElse("-")
                          + "/"
                          + call.context()
                              .session()
                              .principal()
                              .map(Principal::subject)
                              .orElse("-")))
          .tool(
              Tool.builder("admin_tool").build(),
              call -> {
                adminRuns.incrementAndGet();
                return CallToolResult.text("done");
              })
          .toolScopes("admin_tool", "admin")
          .build();

  private McpClient connect(Principal principal) throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    ServerSession session = server.connect(pair.server());
    if (principal != null) {
      EngineAccess.of(session).principal(principal);
    }
    return McpClient.builder().info("scopes", "1").connect(pair.client());
  }

  @Test
  void aPrincipalWithoutTheScopeNeitherSeesNorCallsTheTool() throws Exception {
    try (McpClient alice = connect(Principal.of("alice", Set.of("mcp")))) {
      assertThat(alice.listTools()).extracting(Tool::name).containsExactly("whoami");
      assertThatThrownBy(() -> alice.callTool("admin_tool", null))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(-32600);
                assertThat(e.getMessage()).contains("insufficient scope").contains("admin");
              });
      assertThat(adminRuns.get()).isZero();
      assertThat(alice.callTool("whoami", null).content().toString()).contains("alice/alice");
    }
  }

  @Test
  void aPrincipalWithTheScopeAndARequestWithoutAPrincipalAreServedAsBefore() throws Exception {
    try (McpClient admin = connect(Principal.of("root", Set.of("admin")));
        McpClient open = connect(null)) {
      assertThat(admin.listTools()).extracting(Tool::name).contains("admin_tool");
      admin.callTool("admin_tool", null);
      assertThat(open.listTools()).extracting(Tool::name).contains("admin_tool");
      open.callTool("admin_tool", null);
      assertThat(adminRuns.get()).isEqualTo(2);
      assertThat(open.callTool("whoami", null).content().toString()).contains("-/-");
    }
  }
}
