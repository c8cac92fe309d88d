package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.herald.auth.ProtectedResource;
import dev.herald.client.McpClient;
import dev.herald.client.auth.AuthorizationCodeHandler;
import dev.herald.client.auth.OAuthClient;
import dev.herald.client.auth.StoredGrant;
import dev.herald.http.McpHttpServer;
import dev.herald.oauth.JwtTokenVerifier;
import dev.herald.server.McpServer;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Herald's {@code OAuthClient} against a real OAuth 2.1 authorization server (Spring Authorization
 * Server, started by {@link AuthorizationServerProcess}): discovery from a protected resource's
 * metadata, the authorization code grant with PKCE for a pre-registered public client (the server
 * logs the user in by itself), and the {@code client_credentials} grant; the tokens are issued
 * for the resource the metadata names (RFC 8707 {@code aud}); and an {@code McpClient} with it
 * completing the whole flow against Herald's own protected server (herald-http with herald-oauth's
 * JWT verifier), stepping up for a tool that needs another scope.
 */
@Timeout(300)
class OAuthClientAgainstAuthorizationServerIT {
  private static AuthorizationServerProcess as;
  private static HttpServer resource;
  private static URI mcp;

  @BeforeAll
  static void start() throws Exception {
    as = AuthorizationServerProcess.builder().autoLogin(true).start();
    resource = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    mcp = URI.create("http://127.0.0.1:" + resource.getAddress().getPort() + "/mcp");
    resource.createContext(
        "/.well-known/oauth-protected-resource/mcp",
        ex -> {
          byte[] body =
              ("{\"resource\":\""
                      + mcp
                      + "\",\"authorization_servers\":[\""
                      + as.issuer()
                      + "\"],\"scopes_supported\":[\"tools:read\"]}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    resource.start();
  }

  @AfterAll
  static void stop() {
    if (resource != null) {
      resource.stop(0);
    }
    if (as != null) {
      as.close();
    }
  }

  @Test
  void aPublicClientGetsATokenForTheResourceThroughTheCodeFlowWithPkce() {
    OAuthClient client =
        OAuthClient.builder()
            .clientId(AuthorizationServerProcess.PUBLIC_CLIENT_ID)
            .redirectUri(URI.create(AuthorizationServerProcess.REDIRECT_URI))
            .authorizationCodeHandler(
                AuthorizationCodeHandler.followRedirects(Duration.ofSeconds(30)))
            .build();

    StoredGrant grant = client.authorize(mcp);

    assertThat(grant.issuer()).isEqualTo(as.issuer());
    assertThat(grant.authMethod()).isEqualTo("none");
    JsonNode claims = claims(grant.accessToken());
    assertThat(claims.path("aud").toString()).contains(mcp.toString());
    assertThat(claims.path("scope").toString()).contains("tools:read");
    assertThat(client.authorizationHeader(mcp)).contains("Bearer " + grant.accessToken());
  }

  @Test
  void aMachineClientGetsATokenForTheResourceWithClientCredentials() {
    OAuthClient client =
        OAuthClient.builder()
            .clientCredentials(
                AuthorizationServerProcess.MACHINE_CLIENT_ID,
                AuthorizationServerProcess.MACHINE_CLIENT_SECRET)
            .build();

    StoredGrant grant = client.authorize(mcp);

    assertThat(grant.authMethod()).isEqualTo("client_secret_basic");
    assertThat(claims(grant.accessToken()).path("aud").toString()).contains(mcp.toString());
  }

  private static JsonNode claims(String jwt) {
    String[] parts = jwt.split("\\.");
    return McpJson.mapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
  }

  @Test
  void heraldsClientAuthorizesWithHeraldsProtectedServerAndStepsUpForAToolsScope()
      throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");
    McpServer mcpServer =
        McpServer.builder()
            .info("protected", "1.0")
            .tool(
                Tool.builder("whoami").description("the caller").build(),
                call ->
                    CallToolResult.text(
                        call.context().principal().map(p -> p.subject()).orElse("-")))
            .tool(
                Tool.builder("deploy").description("needs tools:call").build(),
                call -> CallToolResult.text("deployed"))
            .toolScopes("deploy", "tools:call")
            .build();
    try (JwtTokenVerifier verifier =
            JwtTokenVerifier.builder()
                .issuer(as.issuer())
                .audience(endpoint.toString())
                .jwksUri(as.jwksUri())
                .build();
        McpHttpServer http =
            McpHttpServer.builder()
                .server(mcpServer)
                .port(port)
                .authorization(
                    ProtectedResource.builder()
                        .resource(endpoint)
                        .verifier(verifier)
                        .authorizationServers(URI.create(as.issuer()))
                        .scopesSupported("tools:read", "tools:call")
                        .challengeScopes("tools:read")
                        .build())
                .build()
                .start()) {
      OAuthClient auth =
          OAuthClient.builder()
              .clientId(AuthorizationServerProcess.PUBLIC_CLIENT_ID)
              .redirectUri(URI.create(AuthorizationServerProcess.REDIRECT_URI))
              .authorizationCodeHandler(
                  AuthorizationCodeHandler.followRedirects(Duration.ofSeconds(30)))
              .build();
      try (McpClient client =
          McpClient.builder()
              .info("it", "1.0")
              .connect(
                  StreamableHttpClientTransport.builder()
                      .uri(http.uri())
                      .authorization(auth)
                      .build())) {
        assertThat(client.callTool("whoami", McpJson.object()).firstText())
            .isEqualTo(AuthorizationServerProcess.USER);
        assertThat(client.callTool("deploy", McpJson.object()).firstText()).isEqualTo("deployed");
      }
      String token = auth.authorizationHeader(endpoint).orElseThrow().substring("Bearer ".length());
      assertThat(claims(token).path("scope").toString()).contains("tools:read", "tools:call");
    }
  }
}
