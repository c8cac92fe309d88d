package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.testing.RawHttpClient;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Only the answer to {@code initialize} itself decides whether a session was made: a later
 * request that reuses its id and fails gets its error, and the session stays usable.
 */
class InitializeIdReuseTest {

  @Test
  void aFailingRequestThatReusesTheInitializeIdLeavesTheSessionUsable() throws Exception {
    try (Fixture fixture = new Fixture()) {
      Client client = fixture.client();
      client.initialize(); // id 0
      HttpResponse<Stream<String>> reused =
          client.post(
              "{'jsonrpc':'2.0','id':0,'method':'tools/call','params':{'name':'no-such-tool','arguments':{}}}");
      JsonNode error = RawHttpClient.json(RawHttpClient.body(reused));
      assertThat(error.get("id").intValue()).isEqualTo(0);
      assertThat(error.get("error").get("code").intValue()).isEqualTo(-32602);

      HttpResponse<Stream<String>> next = client.call(1, "quiet", null);
      assertThat(next.statusCode()).isEqualTo(200);
      assertThat(RawHttpClient.describe(RawHttpClient.json(RawHttpClient.body(next))))
          .isEqualTo("result 1 ok");
    }
  }

  @Test
  void aFailedInitializeStillHandsOutNoSession() throws Exception {
    try (Fixture fixture = new Fixture()) {
      Client client = fixture.client();
      HttpResponse<Stream<String>> r =
          client.post(
              "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':5,'capabilities':{},"
                  + "'clientInfo':{'name':'test','version':'1'}}}");
      JsonNode answer = RawHttpClient.json(RawHttpClient.body(r));
      assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32602);
      assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    }
  }
}
