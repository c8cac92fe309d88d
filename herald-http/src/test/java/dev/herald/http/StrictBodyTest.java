package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.testing.RawHttpClient;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A POST body is strict UTF-8 or it is refused: malformed bytes and UTF-16/32 bodies with a parse
 * error, another declared charset with 415. A request that comes before {@code initialize} is
 * answered with its own id.
 */
class StrictBodyTest {
  private static Fixture fixture;
  private static Client client;

  @BeforeAll
  static void start() throws Exception {
    fixture = new Fixture();
    client = fixture.client();
    client.initialize();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static HttpResponse<String> postBytes(Client c, byte[] body, String contentType)
      throws Exception {
    return c.sendForString(
        c.request()
            .setHeader("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  private static JsonNode error(HttpResponse<String> r) {
    return RawHttpClient.json(r.body()).get("error");
  }

  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}";

  @Test
  void anOverlongSequenceInAToolArgumentIsAParseError() throws Exception {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"quiet\",\"arguments\":{\"path\":\"a/"
            .getBytes(StandardCharsets.UTF_8));
    body.writeBytes(HexFormat.of().parseHex("c0aec0ae2f")); // "../" in overlong forms
    body.writeBytes("etc\"}}}".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> r = postBytes(client, body.toByteArray(), "application/json");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r).get("code").intValue()).isEqualTo(-32700);
  }

  @Test
  void anEncodedSurrogateIsAParseError() throws Exception {
    byte[] body =
        ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":\"" + "X\"}}")
            .getBytes(StandardCharsets.UTF_8);
    int x = new String(body, StandardCharsets.UTF_8).indexOf('X');
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(body, 0, x);
    out.writeBytes(HexFormat.of().parseHex("eda080"));
    out.write(body, x + 1, body.length - x - 1);
    HttpResponse<String> r = postBytes(client, out.toByteArray(), "application/json");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r).get("code").intValue()).isEqualTo(-32700);
  }

  @Test
  void utf16AndUtf32BodiesAreParseErrorsWithOrWithoutAByteOrderMark() throws Exception {
    for (String charset : new String[] {"UTF-16", "UTF-16LE", "UTF-16BE", "UTF-32", "UTF-32LE"}) {
      HttpResponse<String> r =
          postBytes(client, PING.getBytes(Charset.forName(charset)), "application/json");
      assertThat(r.statusCode()).as(charset).isEqualTo(400);
      assertThat(error(r).get("code").intValue()).as(charset).isEqualTo(-32700);
    }
  }

  @Test
  void aCharsetOtherThanUtf8Is415AndUtf8IsAccepted() throws Exception {
    HttpResponse<String> r =
        postBytes(
            client, PING.getBytes(StandardCharsets.UTF_16), "application/json; charset=utf-16");
    assertThat(r.statusCode()).isEqualTo(415);
    HttpResponse<String> latin =
        postBytes(
            client,
            PING.getBytes(StandardCharsets.ISO_8859_1),
            "application/json;charset=\"ISO-8859-1\"");
    assertThat(latin.statusCode()).isEqualTo(415);
    HttpResponse<String> ok =
        postBytes(client, PING.getBytes(StandardCharsets.UTF_8), "application/json; charset=UTF-8");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(RawHttpClient.json(ok.body()).get("result")).isNotNull();
  }

  @Test
  void aRequestBeforeInitializeIsAnsweredWithItsOwnId() throws Exception {
    Client fresh = fixture.client();
    HttpResponse<String> r =
        postBytes(
            fresh,
            "{\"jsonrpc\":\"2.0\",\"id\":\"early-7\",\"method\":\"tools/list\"}"
                .getBytes(StandardCharsets.UTF_8),
            "application/json");
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode answer = RawHttpClient.json(r.body());
    assertThat(answer.get("id").stringValue()).isEqualTo("early-7");
    assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32600);
  }
}
