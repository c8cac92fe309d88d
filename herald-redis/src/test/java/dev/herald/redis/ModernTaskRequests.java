package dev.herald.redis;

import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.RawHttpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * 2026-07-28 task requests to any node of a cluster over plain HTTP (the {@code
 * io.modelcontextprotocol/tasks} extension negotiated per request), for the tests that create a
 * task on one node and read or cancel it through another.
 */
final class ModernTaskRequests implements AutoCloseable {
  private static final String EXT = "io.modelcontextprotocol/tasks";
  private static final String TASKS_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'extensions':{'"
          + EXT
          + "':{}}}}";

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private int ids;

  /** Posts one request and returns the response: the JSON answer, or the last SSE event's. */
  JsonNode post(URI node, String method, String name, String params) throws Exception {
    String body =
        "{'jsonrpc':'2.0','id':" + (++ids) + ",'method':'" + method + "','params':" + params + "}";
    HttpRequest.Builder b =
        HttpRequest.newBuilder(node)
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(RawHttpClient.q(body)));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    String text = http.send(b.build(), HttpResponse.BodyHandlers.ofString()).body().strip();
    if (text.startsWith("{")) {
      return json(text);
    }
    JsonNode last = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("data: ")) {
        last = json(line.substring(6));
      }
    }
    return last;
  }

  /** Calls {@code slow_compute} as a task and returns the new task's id. */
  String create(URI node, String label) throws Exception {
    JsonNode r =
        post(
            node,
            "tools/call",
            "slow_compute",
            "{'name':'slow_compute','arguments':{'label':'" + label + "'}," + TASKS_META + "}");
    assertThat(r.at("/result/resultType").asString()).isEqualTo("task");
    return r.at("/result/taskId").asString();
  }

  /** A {@code tasks/*} request about one task. */
  JsonNode tasks(URI node, String method, String taskId) throws Exception {
    return post(node, method, taskId, "{'taskId':'" + taskId + "'," + TASKS_META + "}");
  }

  /** The task's status as {@code tasks/get} on {@code node} tells it. */
  String status(URI node, String taskId) throws Exception {
    return tasks(node, "tasks/get", taskId).at("/result/status").asString("");
  }

  @Override
  public void close() {
    http.close();
  }
}
