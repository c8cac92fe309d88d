package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import dev.herald.session.CountingEventListener;
import dev.herald.testing.HeraldJar;
import dev.herald.wire.McpJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The TypeScript SDK's client (interop/ts/client.mjs) against Herald's server (the demo fixture)
 * over stdio: every message it expects arrives, none is misrouted, late or malformed.
 */
@Timeout(90)
class TypeScriptClientIT {

  private static JsonNode runClient(List<String> target) throws Exception {
    List<String> cmd =
        new ArrayList<>(List.of("node", TsPeer.dir().resolve("client.mjs").toString()));
    cmd.addAll(target);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8).trim();
    assertThat(text).as("the client's report").isNotEmpty();
    return McpJson.mapper().readTree(text.substring(text.lastIndexOf('\n') + 1));
  }

  @Test
  void typeScriptClientDrivesHeraldServerOverStdio() throws Exception {
    List<String> target = new ArrayList<>(List.of("--"));
    target.addAll(HeraldJar.command("serve", "--stdio"));
    assertEverythingArrived(runClient(target));
  }

  @Test
  void typeScriptClientDrivesHeraldServerOverStreamableHttp() throws Exception {
    CountingEventListener events = new CountingEventListener();
    try (McpHttpServer http =
        McpHttpServer.builder().server(DemoFixture.server(events)).port(0).build().start()) {
      assertEverythingArrived(runClient(List.of(http.uri().toString())));
      assertThat(events.slowReaderCloses()).isZero();
    }
  }

  /** The progress values of one call as the TS transport received them; they end at 5, then its response. */
  private static List<Double> progressBeforeResponse(JsonNode wire) {
    assertThat(wire.get(wire.size() - 1).has("response"))
        .as("the call's response comes last: %s", wire)
        .isTrue();
    List<Double> written = new ArrayList<>();
    for (int i = 0; i < wire.size() - 1; i++) {
      written.add(wire.get(i).get("progress").doubleValue());
    }
    assertThat(written)
        .as("progress on the wire before the response")
        .isNotEmpty()
        .isSorted()
        .doesNotHaveDuplicates()
        .endsWith(5.0);
    return written;
  }

  private static void assertEverythingArrived(JsonNode seen) {

    assertThat(seen.get("errors")).as("errors the TS client hit").isEmpty();
    assertThat(seen.get("server").get("name").stringValue()).isEqualTo("herald-demo");
    assertThat(seen.get("capabilities").get("resources").get("subscribe").booleanValue()).isTrue();
    assertThat(seen.get("slow").stringValue()).isEqualTo("completed 5 steps");

    // Progress as Herald wrote it, recorded at the TS client's transport before the SDK dispatches:
    // strictly increasing, the last (flushed) value 5 included, all before the response.
    List<Double> written = progressBeforeResponse(seen.get("slowWire"));
    progressBeforeResponse(seen.get("flushWire"));

    // Progress as the SDK's onprogress callback saw it: only what the peer guarantees. The SDK
    // (1.32) runs notification handlers in a microtask but settles a response synchronously and
    // drops the request's progress handler then, so a progress notification read in the same chunk
    // as the response never reaches onprogress (docs/known-issues.md, "Peer limitations"): under
    // load the final value can be missing. At least one update, strictly increasing, none above
    // the total, all with total 5, each one Herald wrote.
    List<Double> values = new ArrayList<>();
    seen.get("progress")
        .forEach(p -> {
          values.add(p.get("progress").doubleValue());
          assertThat(p.get("total").doubleValue()).isEqualTo(5.0);
        });
    assertThat(values)
        .isNotEmpty()
        .isSorted()
        .doesNotHaveDuplicates()
        .allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(5.0));
    assertThat(written).containsAll(values);

    // Logs: the two info messages, not the debug ones (the level is info).
    assertThat(seen.get("logs")).hasSize(2);
    seen.get("logs").forEach(l -> assertThat(l.get("level").stringValue()).isEqualTo("info"));

    // A resource update for the subscribed uri, once; one coalesced tools/list_changed.
    assertThat(seen.get("updates")).hasSize(1);
    assertThat(seen.get("updates").get(0).stringValue()).isEqualTo("demo://counter");
    assertThat(seen.get("counter").stringValue()).isEqualTo("1");
    assertThat(seen.get("listChanged").intValue()).isEqualTo(1);
    assertThat(seen.get("toolsAfterTouch").intValue()).isEqualTo(seen.get("tools").size() + 1);

    // Cancellation: the call failed on the client, the session went on.
    assertThat(seen.get("cancelled").booleanValue()).isTrue();
    assertThat(seen.get("afterCancel").stringValue()).isEqualTo("still here");

    // Server-to-client requests answered by the TS client's handlers, tied to the tool call.
    assertThat(seen.get("sampling").stringValue())
        .isEqualTo("LLM response: echo of hello from herald");
    assertThat(seen.get("elicitation").stringValue()).contains("action=accept").contains("ts-user");
  }
}
