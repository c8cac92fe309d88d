package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import dev.herald.session.CountingEventListener;
import dev.herald.testing.HeraldJar;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Real 2026-07-28 clients against Herald's dual-era server (the demo fixture, {@code herald serve}
 * over stdio and the same catalog over Streamable HTTP): the TypeScript SDK v2's client
 * (interop/ts2/client.mjs, pinned to 2026-07-28 or probing with {@code server/discover}) and the
 * official Java SDK 2.2.0's modern client (herald-interop-jsdk22). Each runs a fixed script and
 * reports what it saw: tool results, progress values, an {@code input_required} round answered by
 * its elicitation handler, list changes and resource updates through {@code subscriptions/listen},
 * and a cancelled (TypeScript) or timed-out (Java) call that leaves the server serving. The
 * handshake-era clients (TypeScript SDK 1.32.2, Java SDK 2.1.0) keep their own tests against the
 * same dual-era server (TypeScriptClientIT, JavaSdkClientIT, JavaSdkHttpClientIT).
 */
@Timeout(120)
class ModernPeerClientsIT {

  private static List<String> heraldStdio() {
    List<String> target = new ArrayList<>(List.of("--"));
    target.addAll(HeraldJar.command("serve", "--stdio"));
    return target;
  }

  private static McpHttpServer heraldHttp() {
    return McpHttpServer.builder()
        .server(DemoFixture.server(new CountingEventListener()))
        .port(0)
        .build()
        .start();
  }

  @Test
  void typeScriptV2ClientPinnedTo2026DrivesHeraldOverStdio() throws Exception {
    assertTypeScriptSawEverything(Ts2Peer.runClient("modern", heraldStdio()));
  }

  @Test
  void typeScriptV2ClientPinnedTo2026DrivesHeraldOverStreamableHttp() throws Exception {
    try (McpHttpServer http = heraldHttp()) {
      assertTypeScriptSawEverything(Ts2Peer.runClient("modern", List.of(http.uri().toString())));
    }
  }

  @Test
  void typeScriptV2ClientProbingWithDiscoverLandsIn2026OnHeraldsDualEraServer() throws Exception {
    try (McpHttpServer http = heraldHttp()) {
      JsonNode seen = Ts2Peer.runClient("auto", List.of(http.uri().toString()));
      assertThat(seen.get("errors")).as("errors the TS v2 client hit").isEmpty();
      assertThat(seen.get("era").stringValue()).isEqualTo("modern");
      assertThat(seen.get("discovered").booleanValue()).isTrue();
    }
  }

  @Test
  void typeScriptV2ClientProbingWithDiscoverLandsIn2026OnHeraldsStdioServer() throws Exception {
    // On stdio the SDK probes in a sibling process of the same command, then starts its own.
    JsonNode seen = Ts2Peer.runClient("auto", heraldStdio());
    assertThat(seen.get("errors")).as("errors the TS v2 client hit").isEmpty();
    assertThat(seen.get("era").stringValue()).isEqualTo("modern");
    assertThat(seen.get("echo").stringValue()).isEqualTo("hello from ts2");
  }

  @Test
  void typeScriptV2ClientInTheHandshakeEraStillWorksWithHeraldsDualEraServer() throws Exception {
    try (McpHttpServer http = heraldHttp()) {
      JsonNode seen = Ts2Peer.runClient("legacy", List.of(http.uri().toString()));
      assertThat(seen.get("errors")).as("errors the TS v2 client hit").isEmpty();
      assertThat(seen.get("era").stringValue()).isEqualTo("legacy");
      assertThat(seen.get("echo").stringValue()).isEqualTo("hello from ts2");
      assertThat(seen.get("elicitation").stringValue())
          .startsWith("User response: action=accept")
          .contains("ts2-user");
      assertThat(seen.get("updates").get(0).stringValue()).isEqualTo("demo://counter");
    }
  }

  @Test
  void javaSdk22ModernClientDrivesHeraldOverStdio() throws Exception {
    assertJavaSawEverything(Jsdk22Peer.runClient(heraldStdio()));
  }

  @Test
  void javaSdk22ModernClientDrivesHeraldOverStreamableHttp() throws Exception {
    try (McpHttpServer http = heraldHttp()) {
      assertJavaSawEverything(Jsdk22Peer.runClient(List.of(http.uri().toString())));
    }
  }

  private static List<Double> numbers(JsonNode array, String field) {
    List<Double> values = new ArrayList<>();
    array.forEach(n -> values.add((field == null ? n : n.get(field)).doubleValue()));
    return values;
  }

  private static void assertTypeScriptSawEverything(JsonNode seen) {
    assertThat(seen.get("errors")).as("errors the TS v2 client hit").isEmpty();
    assertThat(seen.get("era").stringValue()).isEqualTo("modern");
    assertThat(seen.get("server").get("name").stringValue()).isEqualTo("herald-demo");
    assertThat(seen.get("echo").stringValue()).isEqualTo("hello from ts2");
    assertThat(seen.get("slow").stringValue()).isEqualTo("completed 5 steps");
    // Herald coalesces progress (docs/fixture.md, `slow`): at least one value, rising, within 5.
    assertThat(numbers(seen.get("progress"), "progress"))
        .isNotEmpty()
        .isSorted()
        .doesNotHaveDuplicates()
        .allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(5.0));
    assertThat(seen.get("elicited").get(0).stringValue()).isEqualTo("who are you?");
    assertThat(seen.get("elicitation").stringValue())
        .startsWith("User response: action=accept")
        .contains("ts2-user");
    assertThat(seen.get("prompt").stringValue()).isEqualTo("This is a simple prompt for testing.");
    assertThat(seen.get("honored").get("toolsListChanged").booleanValue()).isTrue();
    assertThat(seen.get("honored").get("resourceSubscriptions").get(0).stringValue())
        .isEqualTo("demo://counter");
    assertThat(seen.get("listChanged").intValue()).isGreaterThanOrEqualTo(1);
    assertThat(seen.get("updates").get(0).stringValue()).isEqualTo("demo://counter");
    assertThat(seen.get("listenClosed").stringValue()).isEqualTo("local");
    assertThat(seen.get("cancelled").booleanValue()).isTrue();
    assertThat(seen.get("afterCancel").stringValue()).isEqualTo("still here");
  }

  private static void assertJavaSawEverything(JsonNode seen) {
    assertThat(seen.get("errors")).as("errors the Java SDK 2.2.0 client hit").isEmpty();
    assertThat(seen.get("supportedVersions").toString()).contains("2026-07-28");
    assertThat(seen.get("echo").stringValue()).isEqualTo("hello from jsdk22");
    assertThat(seen.get("slow").stringValue()).isEqualTo("completed 5 steps");
    assertThat(numbers(seen.get("progress"), null))
        .isNotEmpty()
        .isSorted()
        .doesNotHaveDuplicates()
        .endsWith(5.0);
    assertThat(numbers(seen.get("progressTotals"), null)).containsOnly(5.0);
    assertThat(seen.get("elicited").get(0).stringValue()).isEqualTo("who are you?");
    assertThat(seen.get("elicitation").stringValue())
        .startsWith("User response: action=accept")
        .contains("jsdk22-user");
    assertThat(seen.get("prompt").stringValue()).isEqualTo("This is a simple prompt for testing.");
    assertThat(seen.get("honoured").get("toolsListChanged").booleanValue()).isTrue();
    List<String> events = new ArrayList<>();
    seen.get("listenEvents").forEach(e -> events.add(e.stringValue()));
    assertThat(events)
        .startsWith("Subscribed")
        .contains("ToolsListChanged", "ResourceUpdated:demo://counter");
    assertThat(seen.get("timedOut").booleanValue()).isTrue();
    assertThat(seen.get("afterTimeout").stringValue()).isEqualTo("still here");
  }
}
