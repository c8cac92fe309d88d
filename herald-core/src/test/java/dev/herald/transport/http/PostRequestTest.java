package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A post built once per session state carries exactly the headers, method, URI and body the
 * JDK's request builder made for it, and its headers are made again only when the session id or
 * the protocol version changes.
 */
class PostRequestTest {
  private static final URI ENDPOINT = URI.create("http://127.0.0.1:8080/mcp");

  /** The request as the transport built every post before. */
  private static HttpRequest built(
      Map<String, String> configured, @Nullable String sid, @Nullable String version, byte[] body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(ENDPOINT);
    configured.forEach(b::header);
    if (sid != null) {
      b.header(Http.SESSION_ID, sid);
    }
    if (version != null) {
      b.header(Http.PROTOCOL_VERSION, version);
    }
    return b.header("Accept", Http.ACCEPT_BOTH)
        .header("Content-Type", Http.JSON)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
  }

  @Test
  void aPostCarriesWhatTheJdkBuilderMadeForEverySessionState() {
    List<Map<String, String>> configured =
        List.of(
            Map.of(),
            Map.of("X-Tenant", "blue"),
            Map.of("x-trace", "1", "Accept-Language", "fr", "accept", "application/json"));
    byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes();
    for (Map<String, String> c : configured) {
      for (String sid : Arrays.asList(null, "abc-123")) {
        for (String version : Arrays.asList(null, "2025-11-25")) {
          HttpRequest expected = built(c, sid, version, body);
          HttpRequest post =
              new PostRequest(
                  ENDPOINT,
                  PostRequest.Headers.of(null, c, sid, version).all(),
                  new Http.SignallingPublisher(body));

          assertThat(post.headers()).as("%s %s %s", c, sid, version).isEqualTo(expected.headers());
          assertThat(post.headers().map().keySet())
              .containsExactlyElementsOf(expected.headers().map().keySet());
          assertThat(post.method()).isEqualTo(expected.method());
          assertThat(post.uri()).isEqualTo(expected.uri());
          assertThat(post.timeout()).isEqualTo(expected.timeout());
          assertThat(post.version()).isEqualTo(expected.version());
          assertThat(post.expectContinue()).isEqualTo(expected.expectContinue());
          assertThat(post.bodyPublisher().orElseThrow().contentLength()).isEqualTo(body.length);
        }
      }
    }
  }

  @Test
  void theHeadersAreMadeAgainOnlyWhenTheSessionIdOrVersionChanges() {
    Map<String, String> configured = Map.of("X-Tenant", "blue");
    PostRequest.Headers first = PostRequest.Headers.of(null, configured, null, null);

    assertThat(PostRequest.Headers.of(first, configured, null, null)).isSameAs(first);
    PostRequest.Headers session = PostRequest.Headers.of(first, configured, "s1", null);
    assertThat(session).isNotSameAs(first);
    assertThat(session.all().firstValue(Http.SESSION_ID)).hasValue("s1");
    PostRequest.Headers versioned = PostRequest.Headers.of(session, configured, "s1", "2025-11-25");
    assertThat(versioned).isNotSameAs(session);
    assertThat(PostRequest.Headers.of(versioned, configured, "s1", "2025-11-25"))
        .isSameAs(versioned);
    assertThat(
            PostRequest.Headers.of(versioned, configured, "s2", "2025-11-25")
                .all()
                .firstValue(Http.SESSION_ID))
        .hasValue("s2");
  }

  @Test
  void theBodyIsHandedOverWholeOnceARequestComesAndEachSubscriptionGetsItAgain() {
    byte[] body = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}".getBytes();
    Http.SignallingPublisher publisher = new Http.SignallingPublisher(body);
    assertThat(publisher.sent()).isNotDone();
    for (int round = 0; round < 2; round++) {
      java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
      List<String> events = new java.util.ArrayList<>();
      publisher.subscribe(
          new java.util.concurrent.Flow.Subscriber<java.nio.ByteBuffer>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
              events.add("subscribed");
              s.request(1);
              s.request(1); // nothing more to give
            }

            @Override
            public void onNext(java.nio.ByteBuffer item) {
              events.add("next");
              byte[] b = new byte[item.remaining()];
              item.get(b);
              got.writeBytes(b);
            }

            @Override
            public void onError(Throwable t) {
              events.add("error " + t);
            }

            @Override
            public void onComplete() {
              events.add("complete");
            }
          });
      assertThat(events).containsExactly("subscribed", "next", "complete");
      assertThat(got.toByteArray()).isEqualTo(body);
      assertThat(publisher.sent()).isDone();
    }
  }
}
