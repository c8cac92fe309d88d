package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.auth.Authorization;
import dev.herald.client.auth.AuthorizationException;
import dev.herald.client.auth.Challenge;
import dev.herald.transport.http.ScriptedServer.Request;
import dev.herald.transport.http.ScriptedServer.Responder;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/** The HTTP client transport against a protected server: the header, the retry, the failures. */
@ParameterizedClass
@EnumSource(ClientEngine.class)
class AuthorizationTransportTest {
  @Parameter ClientEngine engine;

  @AfterEach
  void closeEngines() {
    ClientEngine.closeAll();
  }

  private static final String CHALLENGE =
      "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\","
          + " scope=\"read\"";

  /** A handshake-era server that wants {@code Bearer good}; {@code ping} wants scope "admin". */
  private static Responder protectedServer(Request r) {
    if (!r.method().equals("POST")) {
      return ScriptedServer.status(405);
    }
    JsonNode msg = McpJson.mapper().readTree(r.body());
    String method = msg.path("method").asString("");
    if (!"Bearer good".equals(r.header("Authorization"))) {
      return ScriptedServer.json(
          401, "{\"error\":\"invalid_token\"}", "WWW-Authenticate", CHALLENGE);
    }
    if (method.equals("ping")) {
      return ScriptedServer.json(
          403,
          "{\"error\":\"insufficient_scope\"}",
          "WWW-Authenticate",
          "Bearer error=\"insufficient_scope\", scope=\"admin\"");
    }
    if (!msg.has("id")) {
      return ScriptedServer.status(202);
    }
    String id = msg.get("id").toString();
    return ScriptedServer.json(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}");
  }

  /** Hands out {@code good} after the first challenge; refuses any step-up. */
  private static final class Recording implements Authorization {
    final AtomicReference<String> token = new AtomicReference<>("Bearer stale");
    final List<Challenge> challenges = new CopyOnWriteArrayList<>();

    @Override
    public Optional<String> authorizationHeader(URI resource) {
      return Optional.of(token.get());
    }

    @Override
    public boolean retryAfter(Challenge challenge) {
      challenges.add(challenge);
      if (challenge.status() == 403) {
        throw new AuthorizationException("no admin for you");
      }
      token.set("Bearer good");
      return true;
    }
  }

  @Test
  void anUnansweredChallengeEndsTheTransportWithTheServersChallenge() throws Exception {
    try (ScriptedServer server = new ScriptedServer(AuthorizationTransportTest::protectedServer)) {
      assertThatThrownBy(() ->
              McpClient.builder()
                  .eras(EraPreference.HANDSHAKE_ONLY)
                  .connect(engine.transport(server.uri())))
          .isInstanceOfSatisfying(
              AuthorizationException.class,
              e -> {
                assertThat(e)
                    .hasMessageContaining("requires authorization")
                    .hasMessageContaining(CHALLENGE);
                Challenge c = e.challenge().orElseThrow();
                assertThat(c.status()).isEqualTo(401);
                assertThat(c.scope()).contains("read");
                assertThat(c.resourceMetadata()).isPresent();
              });
    }
  }

  @Test
  void aRefusedRequestIsSentAgainWithTheTokenTheAuthorizationObtained() throws Exception {
    Recording auth = new Recording();
    try (ScriptedServer server = new ScriptedServer(AuthorizationTransportTest::protectedServer);
        McpClient client =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .connect(
                    engine
                        .apply(StreamableHttpClientTransport.builder())
                        .uri(server.uri())
                        .authorization(auth)
                        .build())) {
      assertThat(client.protocolVersion().wire()).isEqualTo("2025-11-25");
      assertThat(auth.challenges).hasSize(1);
      assertThat(auth.challenges.getFirst().rejectedAuthorization()).isEqualTo("Bearer stale");
      assertThat(server.requests.stream().filter(r -> r.method().equals("POST")).toList())
          .last()
          .extracting(r -> r.header("Authorization"))
          .isEqualTo("Bearer good");
    }
  }

  @Test
  void aStepUpThatCannotBeSatisfiedFailsOnlyItsRequestWithTheChallenge() throws Exception {
    Recording auth = new Recording();
    try (ScriptedServer server = new ScriptedServer(AuthorizationTransportTest::protectedServer);
        McpClient client =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .connect(
                    engine
                        .apply(StreamableHttpClientTransport.builder())
                        .uri(server.uri())
                        .authorization(auth)
                        .build())) {
      assertThatThrownBy(client::ping)
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e).hasMessageContaining("no admin for you");
                assertThat(StreamableHttpClientTransport.httpStatus(e)).hasValue(403);
                assertThat(e.data().path("wwwAuthenticate").asString())
                    .contains("insufficient_scope");
              });
      assertThat(client.sessionClosed()).isNotDone();
    }
  }

  @Test
  void anAuthorizationAndAnAuthorizationHeaderCannotBothBeSet() {
    assertThatThrownBy(() ->
            StreamableHttpClientTransport.builder()
                .header("Authorization", "Bearer x")
                .authorization(new Recording()))
        .isInstanceOf(IllegalStateException.class);
  }
}
