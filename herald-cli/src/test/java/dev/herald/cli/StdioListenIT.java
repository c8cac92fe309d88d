package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * {@code subscriptions/listen} (MCP 2026-07-28) against a real {@code herald serve --stdio}
 * process, written as raw lines on the pipe with no handshake: the acknowledgement first with the
 * honoured subset, every listen notification tagged with its subscription id, the filter honoured,
 * two listens side by side, cancellation with {@code notifications/cancelled}, the server's end
 * with a {@code complete} result, progress and logs never tagged, the per-listen uri cap, and a
 * prompt exit on stdin EOF with a listen still open.
 */
@Timeout(120)
class StdioListenIT {
  private static final String SUB = "io.modelcontextprotocol/subscriptionId";
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private RawStdioServer server;
  private Process process;
  private OutputStream stdin;
  private BlockingQueue<String> lines;

  /** Every message read so far, in order. */
  private final List<JsonNode> seen = new ArrayList<>();

  private StringBuffer stderr;

  @BeforeEach
  void start() throws IOException {
    server = RawStdioServer.start(List.of("-Xmx96m"));
    process = server.process();
    stdin = server.stdin();
    lines = server.lines();
    stderr = server.stderr();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.close();
  }

  private void send(String line) throws IOException {
    server.send(line);
  }

  private void listen(String id, String filter) throws IOException {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
            + filter
            + ","
            + META
            + "}}");
  }

  private void call(String id, String tool, String arguments) throws IOException {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
            + tool
            + "\",\"arguments\":"
            + arguments
            + ","
            + META
            + "}}");
  }

  /**
   * The first message read so far that matches, else reads until one does; every message read is
   * kept in {@link #seen} (messages for different requests interleave on the pipe).
   */
  private JsonNode await(Predicate<JsonNode> what, String description) throws Exception {
    for (JsonNode m : seen) {
      if (what.test(m)) {
        return m;
      }
    }
    while (true) {
      String line = lines.poll(20, TimeUnit.SECONDS);
      assertThat(line).as("%s (stderr: %s)", description, stderr).isNotNull();
      JsonNode m = McpJson.mapper().readTree(line);
      seen.add(m);
      if (what.test(m)) {
        return m;
      }
    }
  }

  private static Predicate<JsonNode> response(String id) {
    JsonNode want = McpJson.mapper().readTree(id);
    return m -> !m.has("method") && want.equals(m.get("id"));
  }

  private static Predicate<JsonNode> tagged(String id, String method) {
    JsonNode want = McpJson.mapper().readTree(id);
    return m -> method.equals(method(m)) && want.equals(subscriptionId(m));
  }

  private static String method(JsonNode m) {
    JsonNode method = m.get("method");
    return method == null ? "" : method.stringValue();
  }

  private static JsonNode subscriptionId(JsonNode m) {
    JsonNode meta = m.path("params").path("_meta").get(SUB);
    return meta == null ? McpJson.mapper().nullNode() : meta;
  }

  /** The methods of the notifications seen so far that carry subscription id {@code id}. */
  private List<String> seenFor(String id) {
    JsonNode want = McpJson.mapper().readTree(id);
    return seen.stream()
        .filter(m -> want.equals(subscriptionId(m)))
        .map(StdioListenIT::method)
        .toList();
  }

  @Test
  void listensAreAcknowledgedTaggedFilteredCancelledAndEndedByTheServer() throws Exception {
    listen(
        "\"L1\"",
        "{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"demo://counter\",\"demo://nothing\"]}");
    JsonNode ack = await(m -> m.has("method"), "the first message for the listen");
    assertThat(method(ack)).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(subscriptionId(ack).stringValue()).isEqualTo("L1");
    assertThat(ack.get("params").get("notifications"))
        .isEqualTo(
            McpJson.mapper()
                .readTree(
                    "{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"demo://counter\"]}"));

    listen("2", "{\"promptsListChanged\":true}");
    await(tagged("2", "notifications/subscriptions/acknowledged"), "listen 2 acknowledged");

    call("\"c1\"", "test_trigger_tool_change", "{}");
    await(response("\"c1\""), "the trigger's result");
    await(tagged("\"L1\"", "notifications/tools/list_changed"), "the tool change on L1");
    call("\"c2\"", "update_resource", "{}");
    await(tagged("\"L1\"", "notifications/resources/updated"), "the update on L1");
    call("\"c3\"", "test_trigger_prompt_change", "{}");
    await(tagged("2", "notifications/prompts/list_changed"), "the prompt change on 2");
    await(response("\"c3\""), "the prompt trigger's result");

    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"L1\",\"reason\":\"done\"}}");
    listen("3", "{\"toolsListChanged\":true}");
    await(tagged("3", "notifications/subscriptions/acknowledged"), "listen 3 acknowledged");
    call("\"c4\"", "test_trigger_tool_change", "{}");
    await(tagged("3", "notifications/tools/list_changed"), "the tool change on 3");
    call("\"c5\"", "end_listens", "{}");
    JsonNode end2 = await(response("2"), "listen 2 ended by the server");
    JsonNode end3 = await(response("3"), "listen 3 ended by the server");
    await(response("\"c5\""), "end_listens answered");

    // Every result's _meta also names the server (MCP 2026-07-28: serverInfo on every result).
    assertThat(end2.get("result"))
        .isEqualTo(
            McpJson.mapper()
                .readTree(
                    "{\"resultType\":\"complete\",\"_meta\":{\""
                        + SUB
                        + "\":2,\"io.modelcontextprotocol/serverInfo\":"
                        + "{\"name\":\"herald-demo\",\"version\":\""
                        + dev.herald.cli.fixture.Version.VERSION
                        + "\"}}}"));
    assertThat(end3.get("result").get("_meta").get(SUB).intValue()).isEqualTo(3);
    assertThat(seenFor("\"L1\""))
        .containsExactly(
            "notifications/subscriptions/acknowledged",
            "notifications/tools/list_changed",
            "notifications/resources/updated");
    assertThat(seenFor("2"))
        .containsExactly(
            "notifications/subscriptions/acknowledged", "notifications/prompts/list_changed");
    assertThat(seen).noneMatch(response("\"L1\"")); // a cancelled listen is never answered
  }

  @Test
  void progressAndLogsAreNeverTaggedWithASubscription() throws Exception {
    listen(
        "\"L\"",
        "{\"toolsListChanged\":true,\"promptsListChanged\":true,\"resourcesListChanged\":true}");
    await(tagged("\"L\"", "notifications/subscriptions/acknowledged"), "acknowledged");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
            + "\"arguments\":{\"steps\":3,\"delayMs\":20},\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/logLevel\":\"debug\",\"progressToken\":\"p\"}}}");
    await(response("\"s\""), "slow answered");
    call("\"t\"", "test_trigger_tool_change", "{}");
    await(tagged("\"L\"", "notifications/tools/list_changed"), "the tool change");

    assertThat(seen)
        .filteredOn(m -> method(m).equals("notifications/progress"))
        .isNotEmpty()
        .allSatisfy(m -> assertThat(subscriptionId(m).isNull()).isTrue());
    assertThat(seen)
        .filteredOn(m -> !subscriptionId(m).isNull())
        .extracting(StdioListenIT::method)
        .containsExactly(
            "notifications/subscriptions/acknowledged", "notifications/tools/list_changed");
  }

  @Test
  void aListenNamingTooManyResourcesIsRefusedWithInvalidParams() throws Exception {
    StringBuilder uris = new StringBuilder();
    for (int i = 0; i <= 100; i++) {
      uris.append(i == 0 ? "" : ",").append("\"demo://r/").append(i).append('"');
    }
    listen("9", "{\"resourceSubscriptions\":[" + uris + "]}");

    JsonNode refused = await(m -> true, "the answer");

    assertThat(refused.get("id").intValue()).isEqualTo(9);
    assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
    assertThat(refused.get("error").get("message").stringValue())
        .isEqualTo(
            "Invalid params: notifications.resourceSubscriptions names 101 resources; one"
                + " subscriptions/listen may hold at most 100");
  }

  @Test
  void theServerExitsOnStdinEofWithAListenOpen() throws Exception {
    listen("1", "{\"toolsListChanged\":true}");
    await(tagged("1", "notifications/subscriptions/acknowledged"), "acknowledged");

    stdin.close();
    boolean exited = process.waitFor(20, TimeUnit.SECONDS);

    assertThat(exited).isTrue();
    // That the listen does not wait out the drain grace (2 s here, for requests still producing
    // an answer) is shown by herald-core's DrainGraceTest with a grace of a minute: a bound on
    // this process's exit time would be a wall-clock race on a busy machine.
    assertThat(lines).isEmpty(); // nothing more for the listen, no response
  }
}
