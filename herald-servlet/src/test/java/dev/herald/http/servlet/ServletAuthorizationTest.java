package dev.herald.http.servlet;

import static dev.herald.testing.RawHttpClient.json;
import static dev.herald.testing.RawHttpClient.q;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Authorization through {@link McpServlet} in a real servlet container: the same endpoint code as
 * the Jetty server, so the rows that depend on the container are proved again: the metadata
 * document reached through a second mapping of the servlet at the well-known path, the 401
 * challenge, a token accepted, the 403 step-up challenge, and a session refused to another party.
 */
class ServletAuthorizationTest {
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicInteger adminRuns = new AtomicInteger();
  private Server jetty;
  private URI base;

  @BeforeEach
  void start() throws Exception {
    McpServer mcp =
        McpServer.builder()
            .tool(Tool.builder("quiet").build(), call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("admin_tool").build(),
                call -> {
                  adminRuns.incrementAndGet();
                  return CallToolResult.text("done");
                })
            .toolScopes("admin_tool", "admin")
            .build();
    McpServlet servlet =
        McpServlet.builder()
            .server(mcp)
            .authorization(
                ProtectedResource.builder()
                    .resource(URI.create("https://mcp.example.com/app/mcp"))
                    .authorizationServers(URI.create("https://as.example.com"))
                    .scopesSupported("mcp", "admin")
                    .verifier(token ->
                        switch (token) {
                          case "alice" -> Principal.of("alice", Set.of("mcp"));
                          case "bob" -> Principal.of("bob", Set.of("mcp", "admin"));
                          default -> throw new InvalidTokenException("unknown token");
                        })
                    .build())
            .build();
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    ServletHolder holder = new ServletHolder("mcp", servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/app/mcp/*");
    context.addServlet(holder, "/.well-known/oauth-protected-resource/*");
    jetty.setHandler(context);
    jetty.start();
    base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  @AfterEach
  void stop() throws Exception {
    jetty.stop();
  }

  private HttpResponse<String> post(String token, String session, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve("/app/mcp"))
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2025-11-25")
            .POST(HttpRequest.BodyPublishers.ofString(q(body)));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static final String INITIALIZE =
      "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
          + "'capabilities':{},'clientInfo':{'name':'t','version':'1'}}}";

  private static String call(String tool) {
    return "{'jsonrpc':'2.0','id':1,'method':'tools/call','params':{'name':'" + tool + "'}}";
  }

  @Test
  void theServletServesTheMetadataChallengesWithoutATokenAndServesTheTokensParty()
      throws Exception {
    for (String path :
        new String[] {
          "/.well-known/oauth-protected-resource/app/mcp", "/.well-known/oauth-protected-resource"
        }) {
      HttpResponse<String> m =
          http.send(
              HttpRequest.newBuilder(base.resolve(path)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(m.statusCode()).as(path).isEqualTo(200);
      JsonNode doc = json(m.body());
      assertThat(doc.get("resource").asString()).isEqualTo("https://mcp.example.com/app/mcp");
      assertThat(doc.get("bearer_methods_supported").get(0).asString()).isEqualTo("header");
    }

    HttpResponse<String> anonymous = post(null, null, INITIALIZE);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
        .hasValue(
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/"
                + "oauth-protected-resource/app/mcp\", scope=\"mcp admin\"");
    assertThat(post("forged", null, INITIALIZE).headers().firstValue("WWW-Authenticate").get())
        .contains("error=\"invalid_token\"");

    HttpResponse<String> init = post("alice", null, INITIALIZE);
    assertThat(init.statusCode()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(
            post("alice", session, "{'jsonrpc':'2.0','method':'notifications/initialized'}")
                .statusCode())
        .isEqualTo(202);
    HttpResponse<String> quiet = post("alice", session, call("quiet"));
    assertThat(quiet.statusCode()).isEqualTo(200);
    assertThat(quiet.body()).contains("\"ok\"");

    HttpResponse<String> forbidden = post("alice", session, call("admin_tool"));
    assertThat(forbidden.statusCode()).isEqualTo(403);
    assertThat(forbidden.headers().firstValue("WWW-Authenticate").get())
        .startsWith("Bearer error=\"insufficient_scope\", scope=\"admin\"");
    assertThat(adminRuns.get()).isZero();

    assertThat(post("bob", session, call("quiet")).statusCode()).isEqualTo(404);
  }
}
