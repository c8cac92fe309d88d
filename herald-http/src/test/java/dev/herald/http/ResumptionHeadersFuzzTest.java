package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.internal.EndpointProbe;
import dev.herald.http.internal.Mutations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzes, over a real {@link McpHttpServer}, the ids a client sends back (MCP 2025-11-25
 * basic/transports, "Session Management" and "Resumability and Redelivery"): mutated and random
 * {@code Mcp-Session-Id} and {@code Last-Event-ID} values on a GET are answered 400, 404, 409, 204
 * or (for a real id) 200, never 5xx and never with internals in the body, and the server goes on
 * answering.
 */
class ResumptionHeadersFuzzTest {
  private static Fixture fixture;
  private static String session;
  private static String eventId;

  @BeforeContainer
  static void start() throws Exception {
    fixture = new Fixture();
    Fixture.Client client = fixture.client();
    session = client.initialize();
    eventId =
        EndpointProbe.standingStreamId(EndpointProbe.session(fixture.http.endpoint, session))
            + "_0";
  }

  @AfterContainer
  static void stop() {
    fixture.close();
  }

  @Provide
  Arbitrary<String> sessionIds() {
    return Arbitraries.oneOf(
        Arbitraries.just(session).map(s -> s),
        Combinators.combine(Arbitraries.just(session), Arbitraries.longs())
            .as(Mutations::mutateText),
        Arbitraries.strings().ofMaxLength(40));
  }

  @Provide
  Arbitrary<String> eventIds() {
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.just(eventId), Arbitraries.longs())
            .as(Mutations::mutateText),
        Arbitraries.strings().withChars("0123456789_-abc").ofMaxLength(30),
        Arbitraries.longs().map(n -> eventId.substring(0, eventId.indexOf('_') + 1) + n),
        Arbitraries.strings().ofMaxLength(30));
  }

  @Property
  void resumptionHeadersAreAnsweredWithoutInternals(
      @ForAll("sessionIds") String sessionId, @ForAll("eventIds") String lastEventId)
      throws IOException {
    String[] answer = get(sessionId, lastEventId);
    assertThat(answer[0]).isIn("200", "204", "400", "404", "409");
    assertThat(answer[1]).doesNotContain("java.", "Exception", "dev.herald", "jetty");
  }

  /** A GET with the two headers as raw Latin-1 bytes (CR and LF left out); status and body. */
  private static String[] get(String sessionId, String lastEventId) throws IOException {
    String head =
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
            + fixture.http.uri().getPort()
            + "\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
            + "Mcp-Session-Id: "
            + headerSafe(sessionId)
            + "\r\nLast-Event-ID: "
            + headerSafe(lastEventId)
            + "\r\nConnection: close\r\n\r\n";
    try (Socket s = new Socket("127.0.0.1", fixture.http.uri().getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      int n;
      while ((n = in.read(buf)) != -1) {
        all.write(buf, 0, n);
        String text = all.toString(StandardCharsets.ISO_8859_1);
        if (text.startsWith("HTTP/1.1 200") && text.contains("\r\n\r\n")) {
          break; // an open event stream: the head is enough
        }
      }
      String text = all.toString(StandardCharsets.UTF_8);
      int bodyAt = text.indexOf("\r\n\r\n");
      return new String[] {text.substring(9, 12), bodyAt < 0 ? "" : text.substring(bodyAt + 4)};
    }
  }

  private static String headerSafe(String value) {
    StringBuilder s = new StringBuilder();
    for (char c : value.toCharArray()) {
      s.append(c == '\r' || c == '\n' || c > 0xFF ? '?' : c);
    }
    return s.toString();
  }
}
