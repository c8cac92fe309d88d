package dev.herald.http;

import static dev.herald.testing.RawHttpClient.json;
import static dev.herald.testing.RawHttpClient.q;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.auth.TokenVerifier;
import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A protected server for the authorization tests: fixed bearer tokens standing for two parties
 * (alice, with and without the {@code admin} scope; bob), one token whose verification never
 * ends, and an MCP server whose {@code admin_*} entries need the {@code admin} scope.
 */
final class AuthFixture implements AutoCloseable {
  static final String ISSUER = "https://as.example.com";
  static final String ALICE = "alice-token";
  static final String ALICE_ADMIN = "alice-admin-token";
  static final String BOB = "bob-token";
  static final String HANGS = "hangs-token";
  static final String EXPIRED = "expired-token";

  /** The verifier's calls, by token. */
  final Map<String, AtomicInteger> verified = new ConcurrentHashMap<>();

  /** Runs of the scoped tool's handler. */
  final AtomicInteger adminRuns = new AtomicInteger();

  /** What the {@code whoami} handler and the interceptor saw, in order. */
  final List<String> seen = new CopyOnWriteArrayList<>();

  /** Released when the test ends: the hanging verification waits for it. */
  final CountDownLatch release = new CountDownLatch(1);

  final McpServer mcp;
  final McpHttpServer http;

  AuthFixture(Duration verificationTimeout) {
    TokenVerifier verifier =
        token -> {
          verified.computeIfAbsent(token, t -> new AtomicInteger()).incrementAndGet();
          return switch (token) {
            case ALICE -> principal("alice", Set.of("mcp"), null);
            case ALICE_ADMIN -> principal("alice", Set.of("mcp", "admin"), null);
            case BOB -> principal("bob", Set.of("mcp", "admin"), null);
            case EXPIRED -> principal("alice", Set.of("mcp"), Instant.now().minusSeconds(60));
            case HANGS -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              throw new InvalidTokenException("interrupted");
            }
            default -> throw new InvalidTokenException("unknown token");
          };
        };
    ObjectNode named = McpJson.object().put("type", "object");
    named.putObject("properties").putObject("name").put("type", "string");
    mcp =
        McpServer.builder()
            .interceptor(chain -> {
              seen.add(
                  "interceptor "
                      + chain.method()
                      + " "
                      + chain.principal().map(Principal::subject).orElse("-"));
              return chain.proceed();
            })
            .tool(Tool.builder("echo").build(), call -> CallToolResult.text("echo"))
            .tool(
                Tool.builder("whoami").build(),
                call -> {
                  String who = call.context().principal().map(Principal::subject).orElse("-");
                  String owner =
                      call.context().session().principal().map(Principal::subject).orElse("-");
                  seen.add("handler " + who + " owner " + owner);
                  return CallToolResult.text(who);
                })
            .tool(
                Tool.builder("admin_tool").build(),
                call -> {
                  adminRuns.incrementAndGet();
                  return CallToolResult.text("done");
                })
            .toolScopes("admin_tool", "admin")
            .tool(
                Tool.builder("ask_name").build(),
                call -> {
                  ElicitResult r = call.context().elicit(ElicitParams.form("Your name?", named));
                  return CallToolResult.text("Hello, " + r.content().get("name").asString());
                })
            .tool(
                Tool.builder("task_tool").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> CallToolResult.text("task done"))
            .resource(
                Resource.of("file:///public.txt", "public", null),
                read -> ReadResourceResult.of(ResourceContents.text(read.uri(), null, "public")))
            .resource(
                Resource.of("file:///secret.txt", "secret", null),
                read -> ReadResourceResult.of(ResourceContents.text(read.uri(), null, "secret")))
            .resourceScopes("file:///secret.txt", "admin")
            .resourceTemplate(
                ResourceTemplate.of("vault://{id}", "vault", null),
                read -> ReadResourceResult.of(ResourceContents.text(read.uri(), null, "vault")))
            .resourceScopes("vault://{id}", "admin")
            .prompt(
                Prompt.of("hello", null, List.of()),
                get -> GetPromptResult.of(null, List.of(PromptMessage.user("hello"))))
            .prompt(
                Prompt.of("admin_prompt", null, List.of()),
                get -> GetPromptResult.of(null, List.of(PromptMessage.user("admin"))))
            .promptScopes("admin_prompt", "admin")
            .build();
    http =
        McpHttpServer.builder()
            .server(mcp)
            .port(0)
            .authorization(
                ProtectedResource.builder()
                    .resource(URI.create("http://127.0.0.1/mcp"))
                    .verifier(verifier)
                    .authorizationServers(URI.create(ISSUER))
                    .scopesSupported("mcp", "admin")
                    .challengeScopes("mcp")
                    .resourceName("Test MCP server")
                    .verificationTimeout(verificationTimeout)
                    .build())
            .build()
            .start();
  }

  static Principal principal(String subject, Set<String> scopes, Instant expiresAt) {
    return new Principal(ISSUER, subject, "client-1", scopes, expiresAt, Map.of());
  }

  int verifications(String token) {
    AtomicInteger n = verified.get(token);
    return n == null ? 0 : n.get();
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + http.port());
  }

  @Override
  public void close() {
    release.countDown();
    http.close();
    mcp.close();
  }

  /**
   * One party's raw HTTP: every request carries its bearer token (or the headers a test gives),
   * in the handshake era (a session) or the 2026-07-28 era (none).
   */
  static final class Caller {
    final HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    final URI uri;
    String token;
    String session;
    private int ids;

    Caller(URI uri, String token) {
      this.uri = uri;
      this.token = token;
    }

    HttpRequest.Builder request() {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(30))
              .header("Accept", "application/json, text/event-stream")
              .header("Content-Type", "application/json");
      if (token != null) {
        b.header("Authorization", "Bearer " + token);
      }
      return b;
    }

    HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
      return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** A handshake-era POST of {@code body}, with this caller's session. */
    HttpResponse<String> post(String body) throws IOException, InterruptedException {
      HttpRequest.Builder b =
          request()
              .header("MCP-Protocol-Version", "2025-11-25")
              .POST(HttpRequest.BodyPublishers.ofString(q(body)));
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      return send(b);
    }

    /** {@code initialize} and {@code notifications/initialized}; keeps the session id. */
    String initialize() throws IOException, InterruptedException {
      HttpResponse<String> r =
          post(
              "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':"
                  + "'2025-11-25','capabilities':{},'clientInfo':{'name':'t','version':'1'}}}");
      if (r.statusCode() != 200) {
        throw new AssertionError("initialize: " + r.statusCode() + " " + r.body());
      }
      session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
      HttpResponse<String> n = post("{'jsonrpc':'2.0','method':'notifications/initialized'}");
      if (n.statusCode() != 202) {
        throw new AssertionError("initialized: " + n.statusCode());
      }
      return session;
    }

    /** A handshake-era request in this caller's session; returns the response. */
    HttpResponse<String> request(String method, String params)
        throws IOException, InterruptedException {
      return post(
          "{'jsonrpc':'2.0','id':"
              + (++ids)
              + ",'method':'"
              + method
              + "','params':"
              + params
              + "}");
    }

    /** A 2026-07-28 request (no session); returns the response. */
    HttpResponse<String> modern(String method, String name, String params)
        throws IOException, InterruptedException {
      HttpRequest.Builder b =
          request()
              .header("MCP-Protocol-Version", "2026-07-28")
              .header("Mcp-Method", method)
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      q(
                          "{'jsonrpc':'2.0','id':"
                              + (++ids)
                              + ",'method':'"
                              + method
                              + "','params':"
                              + params
                              + "}")));
      if (name != null) {
        b.header("Mcp-Name", name);
      }
      return send(b);
    }
  }

  static final String META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'elicitation':{}}}";

  static final String TASKS_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'extensions':{"
          + "'io.modelcontextprotocol/tasks':{}}}}";

  /** The JSON-RPC message of a response: its JSON body, or the last SSE {@code data} line. */
  static JsonNode message(HttpResponse<String> r) {
    String text = r.body().strip();
    if (text.startsWith("{")) {
      return json(text);
    }
    JsonNode last = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("data: ") && line.length() > 6) {
        last = json(line.substring(6));
      }
    }
    if (last == null) {
      throw new AssertionError("no message in " + r.statusCode() + " " + text);
    }
    return last;
  }

  /** The {@code WWW-Authenticate} header. */
  static String challenge(HttpResponse<?> r) {
    return r.headers().firstValue("WWW-Authenticate").orElse("(none)");
  }
}
