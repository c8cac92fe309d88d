package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.testing.RawHttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A request id is free again once its answer has been received: back-to-back requests with one
 * id over a real HTTP server are never refused as "already in use".
 */
class IdReuseOverHttpTest {

  @Test
  void threeHundredBackToBackPingsWithOneIdAreAllAnswered() throws Exception {
    try (Fixture fixture = new Fixture()) {
      Client client = fixture.client();
      client.initialize();
      List<String> refused = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        HttpResponse<Stream<String>> r = client.post("{'jsonrpc':'2.0','id':7,'method':'ping'}");
        String body = RawHttpClient.body(r);
        if (r.statusCode() != 200 || !body.contains("\"result\"")) {
          refused.add(i + ": " + r.statusCode() + " " + body);
        }
      }
      assertThat(refused).isEmpty();
    }
  }
}
