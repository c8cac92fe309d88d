package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.EndpointProbe;
import dev.herald.internal.session.EngineAccess;
import dev.herald.testing.RawHttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Hostile or broken input gets the right status and JSON-RPC error, and leaves the server and
 * every other session working. One server for the class, so each case also proves the last left
 * it whole.
 */
class BadInputTest {
  private static Fixture fixture;
  private static Client bystander;
  private static Client victim;

  @BeforeAll
  static void start() throws Exception {
    fixture = new Fixture();
    bystander = fixture.client();
    bystander.initialize();
    victim = fixture.client();
    victim.initialize();
  }

  @AfterAll
  static void stop() throws Exception {
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(bystander.call(999, "quiet", null)))))
        .isEqualTo("result 999 ok");
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(victim.call(998, "quiet", null)))))
        .isEqualTo("result 998 ok");
    fixture.close();
  }

  @Test
  void malformedJsonIs400WithParseError() throws Exception {
    HttpResponse<Stream<String>> r = victim.post("{'jsonrpc':'2.0','id':1,'method':");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(code(r)).isEqualTo(-32700);
  }

  @Test
  void deepNestingIs400WithParseError() throws Exception {
    String deep = "[".repeat(5000) + "]".repeat(5000);
    HttpResponse<Stream<String>> r =
        victim.post("{'jsonrpc':'2.0','id':1,'method':'ping','params':{'a':" + deep + "}}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(code(r)).isEqualTo(-32700);
  }

  @Test
  void aWrongContentTypeIs415() throws Exception {
    HttpResponse<String> plain =
        victim.sendForString(
            HttpRequest.newBuilder(victim.uri)
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "text/plain")
                .header("Mcp-Session-Id", victim.session)
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(plain.statusCode()).isEqualTo(415);
    assertThat(RawHttpClient.json(plain.body()).get("error").get("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void anAcceptWithoutEventStreamIs406() throws Exception {
    HttpResponse<String> r =
        victim.sendForString(
            HttpRequest.newBuilder(victim.uri)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", victim.session)
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(r.statusCode()).isEqualTo(406);
  }

  @Test
  void aTwentyMegabyteBodyIs413() throws Exception {
    byte[] huge = new byte[20 * 1024 * 1024];
    java.util.Arrays.fill(huge, (byte) ' ');
    HttpResponse<String> r =
        victim.sendForString(
            victim
                .request()
                .expectContinue(true)
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)));
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(RawHttpClient.json(r.body()).get("error").get("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void aBodyOverTheLimitWithoutContentLengthIs413() throws Exception {
    byte[] big = new byte[5 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) ' ');
    HttpResponse<String> r =
        victim.sendForString(
            victim
                .request()
                .expectContinue(true)
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(big))));
    assertThat(r.statusCode()).isEqualTo(413);
  }

  @Test
  void aBatchIs400() throws Exception {
    HttpResponse<Stream<String>> r = victim.post("[{'jsonrpc':'2.0','id':1,'method':'ping'}]");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(code(r)).isEqualTo(-32600);
  }

  @Test
  void aBadLastEventIdIs400() throws Exception {
    for (String bad : new String[] {"garbage", "99999_1", "1_x", "_", "1_-5"}) {
      HttpResponse<Stream<String>> r = victim.getResponse(bad);
      assertThat(r.statusCode()).as(bad).isEqualTo(400);
      assertThat(code(r)).isEqualTo(-32600);
    }
  }

  @Test
  void aReusedRequestIdWhileTheFirstIsOpenIs400() throws Exception {
    var first =
        victim.http.sendAsync(
            victim
                .request()
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Client.q(
                            "{'jsonrpc':'2.0','id':77,'method':'tools/call','params':{'name':'lockstep','arguments':{}}}")))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    eventually(
        () ->
            EngineAccess.of(
                        EndpointProbe.serverSession(
                            EndpointProbe.session(fixture.http.endpoint, victim.session)))
                    .inFlightCount()
                > 0,
        "call 77 is in flight");
    HttpResponse<Stream<String>> again = victim.post("{'jsonrpc':'2.0','id':77,'method':'ping'}");
    assertThat(again.statusCode()).isEqualTo(400);
    JsonNode body = RawHttpClient.json(RawHttpClient.body(again));
    assertThat(body.get("id").asInt()).isEqualTo(77);
    first.cancel(true);
    victim.post("{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':77}}");
  }

  private static int code(HttpResponse<Stream<String>> r) {
    return RawHttpClient.json(RawHttpClient.body(r)).get("error").get("code").asInt();
  }
}
