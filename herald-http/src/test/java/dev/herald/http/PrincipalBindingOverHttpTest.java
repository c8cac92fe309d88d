package dev.herald.http;

import static dev.herald.http.AuthFixture.ALICE;
import static dev.herald.http.AuthFixture.ALICE_ADMIN;
import static dev.herald.http.AuthFixture.BOB;
import static dev.herald.http.AuthFixture.META;
import static dev.herald.http.AuthFixture.TASKS_META;
import static dev.herald.http.AuthFixture.challenge;
import static dev.herald.http.AuthFixture.message;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.AuthFixture.Caller;
import dev.herald.testing.SseReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a protected endpoint binds to the principal (MCP 2025-11-25 basic/authorization and
 * basic/security_best_practices, "Session Hijacking"), over a real Jetty server: per-entry scopes
 * (403 {@code insufficient_scope}, the handler not run; lists showing only what the principal may
 * use), the session and its stream resumption refused to another party, tasks and {@code
 * requestState} of one principal refused to another, and the principal as handlers and
 * interceptors see it.
 */
class PrincipalBindingOverHttpTest {
  private final AuthFixture f = new AuthFixture(Duration.ofSeconds(30));

  @AfterEach
  void stop() {
    f.close();
  }

  private URI mcp() {
    return f.base().resolve("/mcp");
  }

  // ---------------------------------------------------------------- scopes

  @Test
  void aCallOfAnEntryWhoseScopeTheTokenLacksIs403AndItsHandlerDoesNotRun() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    alice.initialize();
    for (String[] call :
        List.of(
            new String[] {"tools/call", "{'name':'admin_tool','arguments':{}}"},
            new String[] {"resources/read", "{'uri':'file:///secret.txt'}"},
            new String[] {"resources/read", "{'uri':'vault://42'}"},
            new String[] {"prompts/get", "{'name':'admin_prompt'}"})) {
      HttpResponse<String> r = alice.request(call[0], call[1]);
      assertThat(r.statusCode()).as(call[1]).isEqualTo(403);
      assertThat(challenge(r))
          .as(call[1])
          .startsWith("Bearer error=\"insufficient_scope\", scope=\"admin\", resource_metadata=\"");
      assertThat(message(r).at("/error/message").asString()).contains("insufficient scope");
    }
    assertThat(f.adminRuns.get()).isZero();

    // stepped up: the same party with more scopes, in the same session
    alice.token = ALICE_ADMIN;
    HttpResponse<String> ok = alice.request("tools/call", "{'name':'admin_tool','arguments':{}}");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(message(ok).at("/result/content/0/text").asString()).isEqualTo("done");
    assertThat(f.adminRuns.get()).isEqualTo(1);
    assertThat(
            message(alice.request("resources/read", "{'uri':'vault://42'}"))
                .at("/result/contents/0/text")
                .asString())
        .isEqualTo("vault");
  }

  @Test
  void aModernCallOfAScopedToolIs403Too() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    HttpResponse<String> r =
        alice.modern(
            "tools/call", "admin_tool", "{'name':'admin_tool','arguments':{}," + META + "}");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(challenge(r)).contains("error=\"insufficient_scope\"").contains("scope=\"admin\"");
    assertThat(f.adminRuns.get()).isZero();

    Caller admin = new Caller(mcp(), ALICE_ADMIN);
    HttpResponse<String> ok =
        admin.modern(
            "tools/call", "admin_tool", "{'name':'admin_tool','arguments':{}," + META + "}");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(f.adminRuns.get()).isEqualTo(1);
  }

  @Test
  void listsShowOnlyWhatThePrincipalMayUse() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    alice.initialize();
    assertThat(names(alice.request("tools/list", "{}"), "/result/tools", "name"))
        .containsExactly("ask_name", "echo", "task_tool", "whoami");
    assertThat(names(alice.request("resources/list", "{}"), "/result/resources", "uri"))
        .containsExactly("file:///public.txt");
    assertThat(
            names(
                alice.request("resources/templates/list", "{}"),
                "/result/resourceTemplates",
                "uriTemplate"))
        .isEmpty();
    assertThat(names(alice.request("prompts/list", "{}"), "/result/prompts", "name"))
        .containsExactly("hello");

    alice.token = ALICE_ADMIN;
    assertThat(names(alice.request("tools/list", "{}"), "/result/tools", "name"))
        .containsExactly("admin_tool", "ask_name", "echo", "task_tool", "whoami");
    assertThat(names(alice.request("resources/list", "{}"), "/result/resources", "uri"))
        .containsExactly("file:///public.txt", "file:///secret.txt");
    assertThat(names(alice.request("prompts/list", "{}"), "/result/prompts", "name"))
        .containsExactly("admin_prompt", "hello");

    // 2026-07-28: filtered too, and never marked shareable across principals
    JsonNode modern =
        message(new Caller(mcp(), ALICE).modern("tools/list", null, "{" + META + "}"));
    List<String> tools = new ArrayList<>();
    modern.at("/result/tools").forEach(t -> tools.add(t.get("name").asString()));
    assertThat(tools).doesNotContain("admin_tool").contains("echo");
    assertThat(modern.at("/result/cacheScope").asString()).isEqualTo("private");
  }

  private static List<String> names(HttpResponse<String> r, String at, String field) {
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    message(r).at(at).forEach(n -> out.add(n.get(field).asString()));
    return out;
  }

  // ---------------------------------------------------------------- the principal as code sees it

  @Test
  void handlersAndInterceptorsSeeTheRequestsPrincipalAndTheSessionItsOwner() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    alice.initialize();
    alice.token = ALICE_ADMIN; // a newer token of the same party
    HttpResponse<String> r = alice.request("tools/call", "{'name':'whoami','arguments':{}}");
    assertThat(message(r).at("/result/content/0/text").asString()).isEqualTo("alice");
    assertThat(f.seen)
        .containsExactly(
            "interceptor initialize alice",
            "interceptor tools/call alice",
            "handler alice owner alice");
  }

  // ---------------------------------------------------------------- sessions and streams

  @Test
  void anotherPartysTokenWithASessionIdFindsNoSessionAndLeavesItIntact() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    String session = alice.initialize();
    Caller bob = new Caller(mcp(), BOB);
    bob.session = session;

    HttpResponse<String> post = bob.request("tools/call", "{'name':'echo','arguments':{}}");
    HttpResponse<String> get =
        bob.send(
            bob.request()
                .GET()
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session));
    HttpResponse<String> delete =
        bob.send(bob.request().DELETE().header("Mcp-Session-Id", session));
    for (HttpResponse<String> r : List.of(post, get, delete)) {
      assertThat(r.statusCode()).as(r.request().method()).isEqualTo(404);
      assertThat(r.body()).contains("Session not found");
    }
    // the owner's session is untouched, and a refreshed token of the same party still reaches it
    alice.token = ALICE_ADMIN;
    HttpResponse<String> still = alice.request("tools/call", "{'name':'echo','arguments':{}}");
    assertThat(still.statusCode()).isEqualTo(200);
    assertThat(f.http.sessionCount()).isEqualTo(1);
  }

  @Test
  void aStreamResumptionWithAnotherPartysTokenIsRefused() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    String session = alice.initialize();
    String lastEventId;
    HttpResponse<Stream<String>> open =
        alice.client.send(
            getStream(alice, session, null).build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(open.statusCode()).isEqualTo(200);
    try (SseReader stream = new SseReader(open.body())) {
      SseReader.Event priming = stream.event();
      assertThat(priming.id()).isNotNull();
      lastEventId = priming.id();
    }
    Caller bob = new Caller(mcp(), BOB);
    HttpResponse<String> stolen = bob.send(getStream(bob, session, lastEventId));
    assertThat(stolen.statusCode()).isEqualTo(404);

    HttpResponse<Stream<String>> resumed =
        alice.client.send(
            getStream(alice, session, lastEventId).build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(resumed.statusCode()).isEqualTo(200);
    resumed.body().close();
  }

  private static HttpRequest.Builder getStream(Caller c, String session, String lastEventId) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(c.uri)
            .GET()
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25")
            .header("Authorization", "Bearer " + c.token)
            .header("Mcp-Session-Id", session);
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    return b;
  }

  @Test
  void aLegacySseSessionIsRefusedToAnotherParty() throws Exception {
    Caller alice = new Caller(f.base().resolve("/sse"), ALICE);
    HttpResponse<Stream<String>> open =
        alice.client.send(
            alice.request().GET().header("Accept", "text/event-stream").build(),
            HttpResponse.BodyHandlers.ofLines());
    assertThat(open.statusCode()).isEqualTo(200);
    String endpoint;
    try (SseReader stream = new SseReader(open.body())) {
      endpoint = stream.event().data();
    }
    URI post = f.base().resolve(endpoint);
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    Caller bob = new Caller(post, BOB);
    HttpResponse<String> stolen =
        bob.send(bob.request().POST(HttpRequest.BodyPublishers.ofString(init)));
    assertThat(stolen.statusCode()).isEqualTo(404);
    Caller owner = new Caller(post, ALICE);
    HttpResponse<String> mine =
        owner.send(owner.request().POST(HttpRequest.BodyPublishers.ofString(init)));
    assertThat(mine.statusCode()).isEqualTo(202);
  }

  // ---------------------------------------------------------------- tasks and requestState

  @Test
  void aTaskOfOnePrincipalIsUnknownToAnother() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    JsonNode created =
        message(
                alice.modern(
                    "tools/call",
                    "task_tool",
                    "{'name':'task_tool','arguments':{}," + TASKS_META + "}"))
            .get("result");
    assertThat(created.get("resultType").asString()).isEqualTo("task");
    String taskId = created.get("taskId").asString();

    String get = "{'taskId':'" + taskId + "'," + TASKS_META + "}";
    JsonNode bobs = message(new Caller(mcp(), BOB).modern("tasks/get", taskId, get));
    assertThat(bobs.at("/error/code").asInt()).isEqualTo(-32602);
    JsonNode bobsCancel = message(new Caller(mcp(), BOB).modern("tasks/cancel", taskId, get));
    assertThat(bobsCancel.at("/error/code").asInt()).isEqualTo(-32602);

    JsonNode mine = message(new Caller(mcp(), ALICE_ADMIN).modern("tasks/get", taskId, get));
    assertThat(mine.has("result")).as(mine.toString()).isTrue();
    assertThat(mine.at("/result/taskId").asString()).isEqualTo(taskId);
  }

  @Test
  void aRequestStateIssuedToOnePrincipalIsRefusedToAnother() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    JsonNode round1 =
        message(
                alice.modern(
                    "tools/call", "ask_name", "{'name':'ask_name','arguments':{}," + META + "}"))
            .get("result");
    assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
    String key = round1.get("inputRequests").propertyNames().iterator().next();
    String answer =
        "{'name':'ask_name','arguments':{},'inputResponses':{'"
            + key
            + "':{'action':'accept','content':{'name':'Alice'}}},'requestState':'"
            + round1.get("requestState").asString()
            + "',"
            + META
            + "}";

    JsonNode bobs = message(new Caller(mcp(), BOB).modern("tools/call", "ask_name", answer));
    assertThat(bobs.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(bobs.at("/error/message").asString()).contains("different principal");

    JsonNode mine = message(alice.modern("tools/call", "ask_name", answer));
    assertThat(mine.at("/result/content/0/text").asString()).isEqualTo("Hello, Alice");
  }
}
