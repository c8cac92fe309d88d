package dev.herald.interop;

import dev.herald.auth.ProtectedResource;
import dev.herald.http.McpHttpServer;
import dev.herald.oauth.JwtTokenVerifier;
import dev.herald.server.McpServer;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Herald's own protected server for the command line's login tests: a real authorization server
 * ({@link AuthorizationServerProcess}), and a Streamable HTTP server on 127.0.0.1 whose one tool,
 * {@code deploy}, needs the scope {@code tools:call} and answers with the caller's subject, behind
 * herald-oauth's JWT verifier of that authorization server's keys.
 */
final class ProtectedDeployServer implements AutoCloseable {
  final AuthorizationServerProcess as;
  final URI endpoint;

  /** How many times {@code deploy} ran. */
  final AtomicInteger deployed = new AtomicInteger();

  private final JwtTokenVerifier verifier;
  private final McpHttpServer http;

  private ProtectedDeployServer(AuthorizationServerProcess as) throws IOException {
    this.as = as;
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");
    McpServer mcpServer =
        McpServer.builder()
            .info("protected", "1.0")
            .tool(
                Tool.builder("deploy").description("needs tools:call").build(),
                call -> {
                  deployed.incrementAndGet();
                  return CallToolResult.text(
                      "deployed by "
                          + call.context().principal().map(p -> p.subject()).orElse("-"));
                })
            .toolScopes("deploy", "tools:call")
            .build();
    verifier =
        JwtTokenVerifier.builder()
            .issuer(as.issuer())
            .audience(endpoint.toString())
            .jwksUri(as.jwksUri())
            // generous bounds for a busy machine: a verification that runs out of time refuses
            // the CLI's fresh token, which then starts a second login
            .timeout(Duration.ofSeconds(60))
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    http =
        McpHttpServer.builder()
            .server(mcpServer)
            .port(port)
            .authorization(
                ProtectedResource.builder()
                    .resource(endpoint)
                    .verifier(verifier)
                    .authorizationServers(URI.create(as.issuer()))
                    .scopesSupported("tools:read", "tools:call")
                    .challengeScopes("tools:read", "tools:call")
                    .build())
            .build()
            .start();
  }

  /** Starts {@code authorizationServer}, then the protected server that trusts it. */
  static ProtectedDeployServer start(AuthorizationServerProcess.Builder authorizationServer)
      throws IOException {
    AuthorizationServerProcess as = authorizationServer.start();
    try {
      return new ProtectedDeployServer(as);
    } catch (IOException | RuntimeException e) {
      as.close();
      throw e;
    }
  }

  @Override
  public void close() {
    http.close();
    verifier.close();
    as.close();
  }
}
