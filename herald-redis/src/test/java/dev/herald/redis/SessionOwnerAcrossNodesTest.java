package dev.herald.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.auth.TokenVerifier;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A protected session in a cluster (MCP 2025-11-25 basic/authorization, "Token Handling", and
 * basic/security_best_practices, "Session Hijacking"): two Herald nodes on one real redis-server
 * with a verifier of fixed tokens. The session directory carries the party that created a
 * session, so a node that restores it serves it to that party only and answers anyone else 404,
 * as the node that made it does, whoever reaches it first.
 */
class SessionOwnerAcrossNodesTest {
  private static final String ISSUER = "https://as.example.com";
  private static final String ALICE = "alice-token";
  private static final String ALICE_REFRESHED = "alice-refreshed-token";
  private static final String BOB = "bob-token";
  private static final String BOB_OTHER_ISSUER = "bob-elsewhere-token";

  private RedisProcess redis;
  private final List<Node> nodes = new ArrayList<>();

  private static final TokenVerifier VERIFIER =
      token ->
          switch (token) {
            case ALICE -> principal(ISSUER, "alice");
            case ALICE_REFRESHED -> principal(ISSUER, "alice");
            case BOB -> principal(ISSUER, "bob");
            // the same subject from another issuer is another party
            case BOB_OTHER_ISSUER -> principal("https://other.example.com", "alice");
            default -> throw new InvalidTokenException("unknown token");
          };

  private static Principal principal(String issuer, String subject) {
    return new Principal(issuer, subject, "client-1", Set.of("mcp"), null, Map.of());
  }

  final class Node extends HttpNode {
    Node() {
      super(
          McpServer.builder()
              .tool(
                  Tool.builder("whoami").build(),
                  call ->
                      CallToolResult.text(
                          call.context().principal().map(Principal::subject).orElse("-")))
              .build(),
          redis.uri(),
          b ->
              b.authorization(
                  ProtectedResource.builder()
                      .resource(URI.create("http://127.0.0.1/mcp"))
                      .verifier(VERIFIER)
                      .authorizationServers(URI.create(ISSUER))
                      .build()));
    }

    /** A raw client of this node whose every request carries {@code token}. */
    RawHttpClient client(String token, @Nullable String session) {
      RawHttpClient c =
          new RawHttpClient(http.uri()) {
            @Override
            public HttpRequest.Builder request() {
              return super.request().header("Authorization", "Bearer " + token);
            }
          };
      c.session = session;
      return c;
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    nodes.add(new Node());
    nodes.add(new Node());
  }

  @AfterEach
  void stop() {
    nodes.forEach(Node::close);
    redis.close();
  }

  @Test
  void aSessionRestoredOnAnotherNodeIsServedToItsOwnerAndUnknownToAnotherParty() throws Exception {
    Node a = nodes.get(0);
    Node b = nodes.get(1);
    RawHttpClient aliceOnA = a.client(ALICE, null);
    String session = aliceOnA.initialize();
    assertThat(whoami(aliceOnA).statusCode()).isEqualTo(200);

    // bob reaches node B first: B restores the session from the directory and refuses him
    assertThat(whoami(b.client(BOB, session)).statusCode()).isEqualTo(404);
    assertThat(standingGet(b.client(BOB, session))).isEqualTo(404);
    assertThat(whoami(b.client(BOB_OTHER_ISSUER, session)).statusCode()).isEqualTo(404);

    // alice, with the token she made the session with or a refreshed one, is served on B
    HttpResponse<Stream<String>> served = whoami(b.client(ALICE, session));
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.body(served)).contains("\"text\":\"alice\"");
    HttpResponse<Stream<String>> refreshed = whoami(b.client(ALICE_REFRESHED, session));
    assertThat(refreshed.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.body(refreshed)).contains("\"text\":\"alice\"");

    // and bob is still refused there, as on the node that made the session
    assertThat(whoami(b.client(BOB, session)).statusCode()).isEqualTo(404);
    assertThat(whoami(a.client(BOB, session)).statusCode()).isEqualTo(404);
    assertThat(b.client(BOB, session).send(b.client(BOB, session).request().DELETE()).statusCode())
        .isEqualTo(404);
    assertThat(whoami(b.client(ALICE, session)).statusCode()).isEqualTo(200);
  }

  private static HttpResponse<Stream<String>> whoami(RawHttpClient c) throws Exception {
    HttpResponse<Stream<String>> r =
        c.post(
            "{'jsonrpc':'2.0','id':"
                + c.nextId()
                + ",'method':'tools/call','params':{'name':'whoami','arguments':{}}}");
    if (r.statusCode() != 200) {
      RawHttpClient.body(r);
    }
    return r;
  }

  private static int standingGet(RawHttpClient c) throws Exception {
    HttpResponse<Stream<String>> r =
        c.send(c.request().GET().setHeader("Accept", "text/event-stream"));
    int status = r.statusCode();
    r.body().close();
    return status;
  }
}
