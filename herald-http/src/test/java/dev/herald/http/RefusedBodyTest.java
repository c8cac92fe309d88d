package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.RawHttpClient;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A request refused while its body is still arriving gets its whole answer: the server reads and
 * discards the rest of the body (within bounds) before it closes, so the close is not abortive and
 * the client does not lose the answer to a TCP reset. Raw sockets, so the client keeps writing
 * the body after the limit exactly as a streaming client does.
 */
class RefusedBodyTest {
  private static final int CHUNK = 64 * 1024;
  private static Fixture fixture;

  @BeforeAll
  static void start() {
    fixture = new Fixture();
  }

  @AfterAll
  static void stop() throws Exception {
    fixture.close();
  }

  @Test
  void everyChunkedBodyOverTheLimitGetsItsWhole413WhileTheClientIsStillSending() throws Exception {
    for (int i = 0; i < 50; i++) {
      String[] answer = post(fixture, "application/json", 5L * 1024 * 1024);
      assertThat(answer[0]).as("attempt %d", i).startsWith("HTTP/1.1 413");
      assertThat(RawHttpClient.json(answer[1]).get("error").get("message").asString())
          .startsWith("Content Too Large");
    }
  }

  @Test
  void theJdkClientGetsEvery413ForAChunkedBodyOverTheLimit() throws Exception {
    byte[] big = new byte[5 * 1024 * 1024];
    Arrays.fill(big, (byte) ' ');
    try (HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 50; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(fixture.http.uri())
                    .expectContinue(true)
                    .header("Accept", "application/json, text/event-stream")
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(big)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("attempt %d", i).isEqualTo(413);
        assertThat(RawHttpClient.json(r.body()).get("error").get("message").asString())
            .startsWith("Content Too Large");
      }
    }
  }

  @Test
  void theJdkClientGetsEvery415ForABodyItSendsWithoutWaiting() throws Exception {
    byte[] big = new byte[2 * 1024 * 1024];
    Arrays.fill(big, (byte) ' ');
    try (HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 30; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(fixture.http.uri())
                    .header("Accept", "application/json, text/event-stream")
                    .header("Content-Type", "text/plain")
                    .POST(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(big)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("attempt %d", i).isEqualTo(415);
      }
    }
  }

  @Test
  void aBodyWithAWrongContentTypeGetsItsWhole415WhileTheClientIsStillSending() throws Exception {
    for (int i = 0; i < 20; i++) {
      String[] answer = post(fixture, "text/plain", 2L * 1024 * 1024);
      assertThat(answer[0]).as("attempt %d", i).startsWith("HTTP/1.1 415");
      assertThat(RawHttpClient.json(answer[1]).get("error").get("code").asInt()).isEqualTo(-32600);
    }
  }

  @Test
  void aBodyThatNeverEndsGetsItsWhole408AndTheConnectionIsThenClosed() throws Exception {
    String[] answer;
    try (Fixture impatient = new Fixture(b -> b.requestBodyTimeout(Duration.ofMillis(300)))) {
      answer = post(impatient, "application/json", -1);
    }
    assertThat(answer[0]).startsWith("HTTP/1.1 408");
    assertThat(RawHttpClient.json(answer[1]).get("error").get("message").asString())
        .startsWith("Request Timeout");
  }

  @Test
  void aClientThatNeverStopsSendingGetsItsWhole413AndIsThenCutOff() throws Exception {
    String[] answer = post(fixture, "application/json", Long.MAX_VALUE);
    assertThat(answer[0]).startsWith("HTTP/1.1 413");
  }

  /**
   * POSTs a chunked body of {@code total} bytes and only then reads the answer, as the JDK client
   * does ({@code -1}: an endless trickle of small chunks, {@link Long#MAX_VALUE}: an endless
   * stream, both read while they are sent). Returns the status line and the body of the answer; fails if the connection is reset
   * before the whole answer arrived, or if the server never closes it.
   */
  private static String[] post(Fixture server, String contentType, long total) throws Exception {
    int port = server.http.port();
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      String head =
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
              + port
              + "\r\nAccept: application/json, text/event-stream\r\n"
              + "Content-Type: "
              + contentType
              + "\r\nTransfer-Encoding: chunked\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread writer = Thread.ofPlatform().daemon().start(() -> writeBody(out, total));
      if (total >= 0 && total < Long.MAX_VALUE) {
        writer.join(); // like the JDK client: the whole body first, then the answer
      }
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      int headEnd = -1;
      long length = -1;
      while (true) {
        int n;
        try {
          n = in.read(buf);
        } catch (IOException e) {
          throw new AssertionError(
              "the connection failed after "
                  + all.size()
                  + " bytes of the answer: "
                  + all.toString(StandardCharsets.UTF_8),
              e);
        }
        if (n < 0) {
          break;
        }
        all.write(buf, 0, n);
        String text = all.toString(StandardCharsets.ISO_8859_1);
        if (headEnd < 0 && (headEnd = text.indexOf("\r\n\r\n")) >= 0) {
          for (String line : text.substring(0, headEnd).split("\r\n", -1)) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
              length = Long.parseLong(line.substring(15).trim());
            }
          }
        }
        if (headEnd >= 0 && length >= 0 && all.size() >= headEnd + 4 + length) {
          break; // the whole answer is here
        }
      }
      String text = all.toString(StandardCharsets.UTF_8);
      assertThat(headEnd).as("a whole head in %s", text).isPositive();
      assertThat(length).as("a Content-Length in %s", text).isNotNegative();
      assertThat(all.size()).as("the whole body in %s", text).isEqualTo(headEnd + 4 + length);
      writer.join(
          TimeUnit.SECONDS.toMillis(30)); // the server ends the exchange, so the writer stops
      assertThat(writer.isAlive()).as("the server closed the connection").isFalse();
      return new String[] {text.substring(0, text.indexOf("\r\n")), text.substring(headEnd + 4)};
    }
  }

  private static void writeBody(OutputStream out, long total) {
    int size = total < 0 ? 16 : CHUNK;
    byte[] data = new byte[size];
    Arrays.fill(data, (byte) ' ');
    byte[] frame = (Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
    try {
      for (long sent = 0; total < 0 || sent < total; sent += size) {
        out.write(frame);
        out.write(data);
        out.write(crlf);
        if (total < 0) {
          out.flush();
        }
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    } catch (IOException expected) {
      // the server closed the connection after answering
    }
  }
}
