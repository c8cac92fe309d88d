package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.client.auth.AuthorizationCodeHandler;
import dev.herald.client.auth.OAuthClient;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.McpJson;
import java.io.PrintStream;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import tools.jackson.databind.JsonNode;

/**
 * The conformance suite's {@code auth/*} client scenarios, acted out by an ordinary {@link
 * McpClient} over a transport with an {@link OAuthClient}: list the tools and call {@code
 * test-tool}; everything the scenarios check (discovery order, the client's identity, PKCE, scopes,
 * step-up, the resource indicator, the issuer) is the client's own behaviour. The suite's
 * authorization server redirects straight back with the code, so the redirects are followed
 * without a browser. {@code MCP_CONFORMANCE_CONTEXT} gives a pre-registered client ({@code
 * client_id}, {@code client_secret}), or the machine client of the {@code
 * auth/client-credentials-*} scenarios (a secret, or a {@code private_key_pem} for {@code
 * private_key_jwt}).
 */
final class AuthScenarios {
  /** The client ID metadata document URL the suite's {@code auth/basic-cimd} expects. */
  static final URI CLIENT_METADATA_URL =
      URI.create("https://conformance-test.local/client-metadata.json");

  private AuthScenarios() {}

  static boolean handles(String scenario) {
    return scenario.startsWith("auth/");
  }

  /** Acts out {@code scenario} against the mock server at {@code url}. */
  static void run(String scenario, URI url, McpClient.Builder builder, PrintStream out)
      throws InterruptedException {
    JsonNode context = context();
    OAuthClient.Builder auth = OAuthClient.builder().clientName("herald-conformance-client");
    String id = text(context, "client_id");
    String secret = text(context, "client_secret");
    String pem = text(context, "private_key_pem");
    if (scenario.startsWith("auth/client-credentials") && id != null && pem != null) {
      String alg = text(context, "signing_algorithm");
      auth.clientCredentials(
          id, privateKey(pem, alg == null ? "ES256" : alg), alg == null ? "ES256" : alg);
    } else if (scenario.startsWith("auth/client-credentials") && id != null && secret != null) {
      auth.clientCredentials(id, secret);
    } else {
      auth.redirectUri(URI.create("http://localhost:3000/callback"))
          .authorizationCodeHandler(
              AuthorizationCodeHandler.followRedirects(Duration.ofSeconds(10)))
          .clientMetadataUrl(CLIENT_METADATA_URL);
      if (id != null) {
        auth.clientId(id);
        if (secret != null) {
          auth.clientSecret(secret);
        }
      }
    }
    StreamableHttpClientTransport transport =
        StreamableHttpClientTransport.builder().uri(url).authorization(auth.build()).build();
    try (McpClient client = builder.connect(transport)) {
      client.tools();
      out.println(client.callTool("test-tool", McpJson.object()).firstText());
    }
  }

  /** A PKCS#8 PEM private key for a JWS algorithm (ES* keys are EC, RS* keys RSA). */
  static PrivateKey privateKey(String pem, String alg) {
    String base64 =
        pem.replaceAll("-----(BEGIN|END) [A-Z ]*PRIVATE KEY-----", "").replaceAll("\\s", "");
    try {
      return KeyFactory.getInstance(alg.startsWith("ES") ? "EC" : "RSA")
          .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("MCP_CONFORMANCE_CONTEXT: unreadable private_key_pem", e);
    }
  }

  private static JsonNode context() {
    String text = System.getenv("MCP_CONFORMANCE_CONTEXT");
    return text == null || text.isBlank() ? McpJson.object() : McpJson.mapper().readTree(text);
  }

  private static @org.jspecify.annotations.Nullable String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && v.isString() ? v.stringValue() : null;
  }
}
