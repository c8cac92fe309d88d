package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON-RPC envelope: classification, errors to answer with, batches and exact encoding. */
class MessageCodecTest {

  private static JsonRpcMessage valid(String json) {
    DecodedMessage d = MessageCodec.decode(json);
    assertThat(d).isInstanceOf(DecodedMessage.Valid.class);
    return ((DecodedMessage.Valid) d).message();
  }

  private static DecodedMessage.Invalid invalid(String json) {
    DecodedMessage d = MessageCodec.decode(json);
    assertThat(d).isInstanceOf(DecodedMessage.Invalid.class);
    return (DecodedMessage.Invalid) d;
  }

  @Test
  void requestIsClassifiedWithIdMethodAndParams() {
    JsonRpcMessage m =
        valid(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");
    assertThat(m)
        .isInstanceOfSatisfying(
            JsonRpcMessage.Request.class,
            r -> {
              assertThat(r.id()).isEqualTo(RequestId.of(1));
              assertThat(r.method()).isEqualTo(McpMethods.TOOLS_CALL);
              assertThat(r.params().get("name").stringValue()).isEqualTo("echo");
            });
  }

  @Test
  void notificationHasNoId() {
    JsonRpcMessage m = valid("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertThat(m).isEqualTo(new JsonRpcMessage.Notification(McpMethods.INITIALIZED, null));
  }

  @Test
  void resultAndErrorAreResponses() {
    assertThat(valid("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}"))
        .isInstanceOfSatisfying(
            JsonRpcMessage.Result.class, r -> assertThat(r.id()).isEqualTo(RequestId.of("a")));
    assertThat(
            valid(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"Method not found\",\"data\":{\"m\":\"x\"}}}"))
        .isInstanceOfSatisfying(
            JsonRpcMessage.Error.class,
            e -> {
              assertThat(e.id()).isEqualTo(RequestId.of(2));
              assertThat(e.error().code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
              assertThat(e.error().data().get("m").stringValue()).isEqualTo("x");
            });
    assertThat(
            valid(
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"))
        .isInstanceOfSatisfying(JsonRpcMessage.Error.class, e -> assertThat(e.id()).isNull());
  }

  @Test
  void invalidJsonIsAParseError() {
    DecodedMessage.Invalid i = invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
    assertThat(i.error().code()).isEqualTo(ErrorCodes.PARSE_ERROR);
    assertThat(i.id()).isNull();
    assertThat(i.answerable()).isTrue();
    assertThat(MessageCodec.encodeToString(MessageCodec.errorFor(i)))
        .contains("\"id\":null", "-32700");
  }

  @Test
  void nestingDeeperThanTheLimitIsAParseErrorNotAStackOverflow() {
    byte[] deep = "[".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
    DecodedMessage d = MessageCodec.decode(deep);
    assertThat(d)
        .isInstanceOfSatisfying(
            DecodedMessage.Invalid.class,
            i -> {
              assertThat(i.error().code()).isEqualTo(ErrorCodes.PARSE_ERROR);
              assertThat(i.error().message()).contains(Integer.toString(McpJson.MAX_NESTING_DEPTH));
            });
  }

  @Test
  void nestingWithinTheLimitIsAccepted() {
    String params = "{\"a\":".repeat(50) + "1" + "}".repeat(50);
    assertThat(valid("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":" + params + "}"))
        .isInstanceOf(JsonRpcMessage.Notification.class);
  }

  @Test
  void badJsonrpcVersionIsInvalidRequestKeepingTheId() {
    DecodedMessage.Invalid i = invalid("{\"jsonrpc\":\"1.0\",\"id\":\"7\",\"method\":\"ping\"}");
    assertThat(i.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
    assertThat(i.id()).isEqualTo(RequestId.of("7"));
    assertThat(invalid("{\"id\":3,\"method\":\"ping\"}").id()).isEqualTo(RequestId.of(3));
  }

  @Test
  void nonStringMethodIsInvalidRequestKeepingTheId() {
    DecodedMessage.Invalid i = invalid("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":42}");
    assertThat(i.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
    assertThat(i.id()).isEqualTo(RequestId.of(5));
  }

  @Test
  void badIdTypesAreInvalidRequest() {
    for (String id : new String[] {"1.5", "true", "{}", "[1]", "123456789012345678901234567890"}) {
      DecodedMessage.Invalid i =
          invalid("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
      assertThat(i.error().code()).as("id %s", id).isEqualTo(ErrorCodes.INVALID_REQUEST);
      assertThat(i.id()).isNull();
      assertThat(i.answerable()).isTrue();
    }
  }

  @Test
  void nullIdOnARequestIsInvalidRequest() {
    assertThat(invalid("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}").error().code())
        .isEqualTo(ErrorCodes.INVALID_REQUEST);
  }

  @Test
  void nonObjectParamsAreInvalidParamsWithTheId() {
    DecodedMessage.Invalid i =
        invalid("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":[1,2]}");
    assertThat(i.error().code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(i.id()).isEqualTo(RequestId.of(9));
    assertThat(
            invalid("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"x\",\"params\":\"s\"}")
                .error()
                .code())
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
  }

  @Test
  void nonObjectParamsOnANotificationAreNotAnswered() {
    DecodedMessage.Invalid i =
        invalid("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":5}");
    assertThat(i.answerable()).isFalse();
  }

  @Test
  void nonObjectMessagesAreInvalidRequest() {
    assertThat(invalid("42").error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
    assertThat(invalid("\"x\"").error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
    assertThat(invalid("{\"jsonrpc\":\"2.0\",\"id\":1}").error().code())
        .isEqualTo(ErrorCodes.INVALID_REQUEST);
  }

  @Test
  void batchItemsAreClassifiedOneByOne() {
    DecodedMessage d =
        MessageCodec.decode(
            """
            [{"jsonrpc":"2.0","id":1,"method":"ping"},
             {"jsonrpc":"2.0","method":"notifications/initialized"},
             {"jsonrpc":"2.0","id":"2","method":7},
             [1]]
            """);
    assertThat(d)
        .isInstanceOfSatisfying(
            DecodedMessage.Batch.class,
            b -> {
              assertThat(b.items()).hasSize(4);
              assertThat(b.items().get(0)).isInstanceOf(DecodedMessage.Valid.class);
              assertThat(b.items().get(1)).isInstanceOf(DecodedMessage.Valid.class);
              assertThat(b.items().get(2))
                  .isInstanceOfSatisfying(
                      DecodedMessage.Invalid.class,
                      i -> assertThat(i.id()).isEqualTo(RequestId.of("2")));
              assertThat(b.items().get(3)).isInstanceOf(DecodedMessage.Invalid.class);
            });
  }

  @Test
  void emptyBatchIsInvalidRequest() {
    assertThat(invalid("[]").error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
  }

  @Test
  void stringAndIntegerIdsArePreservedOnEncode() {
    assertThat(
            MessageCodec.encodeToString(
                new JsonRpcMessage.Request(RequestId.of("1"), "ping", null)))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"ping\"}");
    assertThat(
            MessageCodec.encodeToString(
                new JsonRpcMessage.Result(RequestId.of(1), McpJson.object())))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    String raw = "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"ping\"}";
    assertThat(MessageCodec.encodeToString(valid(raw))).isEqualTo(raw);
  }

  @Test
  void errorWithoutIdIsEncodedWithNullId() {
    String s =
        MessageCodec.encodeToString(
            new JsonRpcMessage.Error(
                null, new JsonRpcMessage.ErrorObject(ErrorCodes.PARSE_ERROR, "Parse error", null)));
    assertThat(s)
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
  }

  @Test
  void progressValuesArePreservedExactlyThroughDecodeAndEncode() {
    String raw =
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
            + "\"params\":{\"progressToken\":\"t\",\"progress\":0.1,\"total\":12345678901234567890}}";
    JsonRpcMessage.Notification n = (JsonRpcMessage.Notification) valid(raw);
    ProgressNotificationParams p = McpJson.fromTree(n.params(), ProgressNotificationParams.class);
    assertThat(p.progress()).isEqualTo(new BigDecimal("0.1"));
    assertThat(p.total()).isEqualTo(new BigDecimal("12345678901234567890"));
    assertThat(MessageCodec.encodeToString(n)).isEqualTo(raw);

    ObjectNode params = McpJson.toObject(p);
    String again =
        MessageCodec.encodeToString(new JsonRpcMessage.Notification(McpMethods.PROGRESS, params));
    assertThat(again).contains("\"progress\":0.1", "\"total\":12345678901234567890");
  }

  @Test
  void encodedMessagesHaveNoNewline() {
    ObjectNode params = McpJson.object().put("text", "line1\nline2");
    String s = MessageCodec.encodeToString(new JsonRpcMessage.Notification("x", params));
    assertThat(s).doesNotContain("\n");
    JsonNode back = ((JsonRpcMessage.Notification) valid(s)).params();
    assertThat(back.get("text").stringValue()).isEqualTo("line1\nline2");
  }
}
