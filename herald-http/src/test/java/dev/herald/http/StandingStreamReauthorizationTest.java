package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.auth.Authorization;
import dev.herald.client.auth.Challenge;
import dev.herald.server.McpServer;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The standing {@code GET} stream of a protected server does not outlive its access token: the
 * server ends it when the token expires (tokens here live three seconds), the client's resumption
 * with the expired token is refused with {@code 401}, and the client answers that as it answers a
 * {@code POST}'s refusal (a refreshed token, the {@code GET} sent again), so the notifications sent
 * afterwards still arrive, and none reaches the stream after its token lapsed.
 */
@ParameterizedClass
@EnumSource(ClientEngine.class)
class StandingStreamReauthorizationTest {
  @Parameter ClientEngine engine;

  @AfterEach
  void closeEngines() {
    ClientEngine.closeAll();
  }

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final String ISSUER = "https://as.example.com";

  /** Each token "t1", "t2"... of the one party lives this long after it was first shown. */
  private static final Duration LIFETIME = Duration.ofSeconds(3);

  /** When each token expires. */
  private final Map<String, Instant> expiry = new ConcurrentHashMap<>();

  /** Every token the server was shown, in order. */
  private final CopyOnWriteArrayList<String> shown = new CopyOnWriteArrayList<>();

  private Principal verify(String token) throws InvalidTokenException {
    if (!token.matches("t[0-9]+")) {
      throw new InvalidTokenException("unknown token");
    }
    shown.add(token);
    Instant exp = expiry.computeIfAbsent(token, t -> Instant.now().plus(LIFETIME));
    return new Principal(ISSUER, "alice", "client-1", Set.of("mcp"), exp, Map.of());
  }

  /** A client's authorization that "refreshes" by moving on to the next token. */
  private static final class Refreshing implements Authorization {
    final AtomicInteger generation = new AtomicInteger(1);
    final CopyOnWriteArrayList<Challenge> challenges = new CopyOnWriteArrayList<>();

    @Override
    public Optional<String> authorizationHeader(URI resource) {
      return Optional.of("Bearer t" + generation.get());
    }

    @Override
    public boolean retryAfter(Challenge challenge) {
      challenges.add(challenge);
      generation.incrementAndGet();
      return true;
    }
  }

  @Test
  void anExpiredTokenOnTheStandingStreamIsRefreshedAndNotificationsKeepArriving() throws Exception {
    McpServer server =
        McpServer.builder()
            .info("protected", "1.0")
            .tool(Tool.builder("echo").build(), call -> CallToolResult.text("echo"))
            .build();
    AtomicInteger listChanged = new AtomicInteger();
    Refreshing auth = new Refreshing();
    try (McpHttpServer http =
        McpHttpServer.builder()
            .server(server)
            .port(0)
            .sseRetry(Duration.ofMillis(50))
            .authorization(
                ProtectedResource.builder()
                    .resource(URI.create("http://127.0.0.1/mcp"))
                    .verifier(this::verify)
                    .authorizationServers(URI.create(ISSUER))
                    .scopesSupported("mcp")
                    .build())
            .build()
            .start()) {
      try (McpClient client =
          McpClient.builder()
              .eras(EraPreference.HANDSHAKE_ONLY) // the standing GET is a handshake-era stream
              .onToolsListChanged(listChanged::incrementAndGet)
              .connect(
                  engine
                      .apply(StreamableHttpClientTransport.builder())
                      .uri(http.uri())
                      .authorization(auth)
                      .build())) {
        client.tools(); // a session hears of list changes once it listed
        server.addTool(Tool.builder("first").build(), call -> CallToolResult.text("1"));
        eventually(BOUND, () -> listChanged.get() >= 1, "the first list change arrived");

        // t1 expires while the session lives; no request is sent meanwhile, only the stream's GETs
        eventually(BOUND, () -> shown.contains("t2"), "the stream came back with a new token");
        assertThat(auth.challenges).isNotEmpty();
        assertThat(auth.challenges.get(0).status()).isEqualTo(401);

        int before = listChanged.get();
        client.tools();
        server.addTool(Tool.builder("second").build(), call -> CallToolResult.text("2"));
        eventually(
            BOUND, () -> listChanged.get() > before, "a list change after the refresh arrived");
        assertThat(client.callTool("echo", null).content()).isNotEmpty();
      }
    }
  }
}
