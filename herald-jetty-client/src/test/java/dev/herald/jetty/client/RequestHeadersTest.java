package dev.herald.jetty.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.Test;

/**
 * Every request the transport builds carries the configured headers and the session's id, and
 * a new session id replaces the old one on the requests built after it was issued (the fields
 * are made once per session state, not per request).
 */
class RequestHeadersTest {
  @Test
  void requestsCarryTheConfiguredHeadersAndTheCurrentSessionId() {
    JettyStreamableHttpClientTransport transport =
        JettyStreamableHttpClientTransport.builder()
            .uri(URI.create("http://127.0.0.1:9/mcp"))
            .header("X-Tenant", "blue")
            .header("X-Trace", "1")
            .build();
    try {
      Request before = transport.request(HttpMethod.POST, "");
      assertThat(before.getHeaders().get("X-Tenant")).isEqualTo("blue");
      assertThat(before.getHeaders().get("X-Trace")).isEqualTo("1");
      assertThat(before.getHeaders().get(JettyStreamableHttpClientTransport.SESSION_ID)).isNull();
      assertThat(before.getHeaders().get("Last-Event-ID")).isNull();

      transport.sessionIssued("s-1");
      Request first = transport.request(HttpMethod.POST, "");
      Request again = transport.request(HttpMethod.GET, "7");
      assertThat(first.getHeaders().get(JettyStreamableHttpClientTransport.SESSION_ID))
          .isEqualTo("s-1");
      assertThat(again.getHeaders().get(JettyStreamableHttpClientTransport.SESSION_ID))
          .isEqualTo("s-1");
      assertThat(again.getHeaders().get("Last-Event-ID")).isEqualTo("7");
      assertThat(again.getHeaders().get("X-Tenant")).isEqualTo("blue");

      transport.sessionIssued("s-2");
      assertThat(
              transport
                  .request(HttpMethod.POST, "")
                  .getHeaders()
                  .getValuesList(JettyStreamableHttpClientTransport.SESSION_ID))
          .containsExactly("s-2");
    } finally {
      transport.close();
    }
  }
}
