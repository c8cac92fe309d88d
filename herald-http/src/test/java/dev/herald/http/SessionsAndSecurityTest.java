package dev.herald.http;

import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Sessions, headers and the DNS-rebinding checks. */
class SessionsAndSecurityTest {
  private final AtomicLong now = new AtomicLong();
  private final Fixture fixture =
      new Fixture(b -> b.maxSessions(3).sessionIdleTimeout(Duration.ofMinutes(1)).ticker(now::get));

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void theSessionIdIsVisibleAsciiFromAStrongRandomSource() throws Exception {
    String a = fixture.client().initialize();
    String b = fixture.client().initialize();
    assertThat(a).matches("[\\x21-\\x7E]{22}").isNotEqualTo(b);
  }

  @Test
  void deleteEndsTheSessionAndLaterRequestsGet404() throws Exception {
    Client client = fixture.client();
    client.initialize();
    HttpResponse<String> deleted = client.sendForString(client.request().DELETE());
    assertThat(deleted.statusCode()).isEqualTo(200);

    HttpResponse<Stream<String>> after = client.call(2, "quiet", null);
    assertThat(after.statusCode()).isEqualTo(404);
    assertThat(error(after)).isEqualTo(-32600);
    assertThat(fixture.http.sessionCount()).isZero();
    assertThat(fixture.mcp.sessions()).isEmpty();
  }

  @Test
  void anUnknownSessionIdGets404() throws Exception {
    Client client = fixture.client();
    client.session = "no-such-session";
    assertThat(client.call(1, "quiet", null).statusCode()).isEqualTo(404);
    assertThat(client.getResponse(null).statusCode()).isEqualTo(404);
  }

  @Test
  void aRequestWithoutSessionIdOtherThanInitializeGets400() throws Exception {
    Client client = fixture.client();
    HttpResponse<Stream<String>> r = client.call(1, "quiet", null);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r)).isEqualTo(-32600);
  }

  @Test
  void aForeignOriginOrHostIs403WhileTheServersOwnHostPasses() throws Exception {
    int port = fixture.http.port();
    String init =
        Client.q(
            "{'jsonrpc':'2.0','id':1,'method':'initialize','params':{'protocolVersion':'2025-11-25',"
                + "'capabilities':{},'clientInfo':{'name':'t','version':'1'}}}");
    String common =
        "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";

    String[] evil =
        Raw.exchange(
            port,
            "POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nOrigin: http://evil.example.com\r\n"
                + common,
            init);
    String[] evilHost =
        Raw.exchange(
            port, "POST /mcp HTTP/1.1\r\nHost: evil.example.com:" + port + "\r\n" + common, init);
    String[] evilOrigin =
        Raw.exchange(
            port,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nOrigin: http://evil.example.com\r\n"
                + common,
            init);
    String[] own =
        Raw.exchange(
            port,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nOrigin: http://127.0.0.1:"
                + port
                + "\r\n"
                + common,
            init);
    String[] localhost =
        Raw.exchange(
            port,
            "POST /mcp HTTP/1.1\r\nHost: localhost:"
                + port
                + "\r\nOrigin: http://localhost:"
                + port
                + "\r\n"
                + common,
            init);

    assertThat(evil[0]).isEqualTo("403");
    assertThat(RawHttpClient.json(evil[1]).get("id").isNull()).isTrue();
    assertThat(RawHttpClient.json(evil[1]).get("error").get("code").asInt()).isEqualTo(-32600);
    assertThat(evilHost[0]).isEqualTo("403");
    assertThat(evilOrigin[0]).isEqualTo("403");
    assertThat(own[0]).isEqualTo("200");
    assertThat(localhost[0]).isEqualTo("200");
  }

  @Test
  void theAllowListOpensUpOtherOrigins() throws Exception {
    try (Fixture open = new Fixture(b -> b.allowedOrigins("https://app.example.com"))) {
      int port = open.http.port();
      String[] r =
          Raw.exchange(
              port,
              "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nOrigin: https://app.example.com\r\n"
                  + "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n",
              Client.q("{'jsonrpc':'2.0','id':1,'method':'ping'}"));
      assertThat(r[0]).isEqualTo("400"); // past the Origin check: no session
    }
  }

  @Test
  void anUnsupportedProtocolVersionIs400AndAnySupportedOneIsAccepted() throws Exception {
    Client client = fixture.client();
    client.initialize();
    HttpResponse<Stream<String>> bad =
        client.send(
            client
                .request()
                .header("MCP-Protocol-Version", "1999-01-01")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Client.q("{'jsonrpc':'2.0','id':3,'method':'ping'}"))));
    assertThat(bad.statusCode()).isEqualTo(400);
    JsonNode body = RawHttpClient.json(RawHttpClient.body(bad));
    assertThat(body.get("error").get("data").get("requested").asString()).isEqualTo("1999-01-01");

    HttpRequest.Builder older =
        HttpRequest.newBuilder(client.uri)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Mcp-Session-Id", client.session)
            .header("MCP-Protocol-Version", "2025-03-26")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Client.q("{'jsonrpc':'2.0','id':4,'method':'ping'}")));
    assertThat(client.send(older).statusCode()).isEqualTo(200);
    HttpRequest.Builder none =
        HttpRequest.newBuilder(client.uri)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Mcp-Session-Id", client.session)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Client.q("{'jsonrpc':'2.0','id':5,'method':'ping'}")));
    assertThat(client.send(none).statusCode()).isEqualTo(200);
  }

  @Test
  void theSessionCapRefusesInitializeWith503() throws Exception {
    for (int i = 0; i < 3; i++) {
      fixture.client().initialize();
    }
    Client fourth = fixture.client();
    HttpResponse<Stream<String>> r =
        fourth.post(
            "{'jsonrpc':'2.0','id':1,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
                + "'clientInfo':{'name':'t','version':'1'}}}");
    assertThat(r.statusCode()).isEqualTo(503);
    JsonNode body = RawHttpClient.json(RawHttpClient.body(r));
    assertThat(body.get("error").get("code").asInt()).isEqualTo(-32000);
    assertThat(body.get("error").get("message").asString()).contains("session limit");
  }

  @Test
  void anIdleSessionEndsAfterTheTimeoutButNotWhileItsStreamIsOpen() throws Exception {
    Client idle = fixture.client();
    idle.initialize();
    Client listening = fixture.client();
    listening.initialize();
    try (SseReader get = listening.get(null)) {
      get.event(); // priming: the stream is attached
      now.addAndGet(Duration.ofMinutes(2).toNanos());
      fixture.http.sweep();

      assertThat(idle.call(1, "quiet", null).statusCode()).isEqualTo(404);
      HttpResponse<Stream<String>> alive = listening.call(2, "quiet", null);
      assertThat(describe(RawHttpClient.json(RawHttpClient.body(alive)))).isEqualTo("result 2 ok");
      assertThat(fixture.http.sessionCount()).isEqualTo(1);
    }
  }

  @Test
  void aGetWithoutEventStreamInAcceptIs406AndOtherMethodsAre405() throws Exception {
    Client client = fixture.client();
    client.initialize();
    HttpResponse<String> get =
        client.sendForString(
            HttpRequest.newBuilder(client.uri)
                .header("Accept", "application/json")
                .header("Mcp-Session-Id", client.session)
                .GET());
    assertThat(get.statusCode()).isEqualTo(406);
    HttpResponse<String> put =
        client.sendForString(client.request().PUT(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(put.statusCode()).isEqualTo(405);
    assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
  }

  private static int error(HttpResponse<Stream<String>> r) {
    return RawHttpClient.json(RawHttpClient.body(r)).get("error").get("code").asInt();
  }
}
