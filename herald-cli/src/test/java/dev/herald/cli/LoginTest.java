package dev.herald.cli;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.auth.AuthorizationCodeHandler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LoginTest {

  @Test
  void theAuthorizationUrlIsPrintedAndTheLoopbackRedirectHandsBackTheCode() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AuthorizationCodeHandler handler =
        Login.browser(port, new PrintStream(err, true, StandardCharsets.UTF_8));
    URI redirect = URI.create("http://127.0.0.1:" + port + "/callback");
    CompletableFuture<URI> result = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            result.complete(
                handler.authorize(URI.create("https://as.example.com/authorize?x=1"), redirect));
          } catch (Exception e) {
            result.completeExceptionally(e);
          }
        });
    eventually(
        () -> err.toString(StandardCharsets.UTF_8).contains("https://as.example.com/authorize?x=1"),
        "the authorization URL printed");

    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> page =
          http.send(
              HttpRequest.newBuilder(URI.create(redirect + "?code=c-1&state=s-1")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("close this window");
    }
    assertThat(result.get(30, TimeUnit.SECONDS))
        .isEqualTo(URI.create(redirect + "?code=c-1&state=s-1"));
  }

  @Test
  void theTokenFileFollowsTheUsersConfigurationFolder() {
    assertThat(Login.tokenFile().toString()).endsWith("tokens.json");
  }
}
