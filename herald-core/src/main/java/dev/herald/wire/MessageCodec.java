package dev.herald.wire;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes and decodes JSON-RPC 2.0 messages.
 *
 * <p>Decoding never throws: malformed input becomes {@link DecodedMessage.Invalid} with the
 * JSON-RPC error to answer (-32700 for unparseable JSON or bytes that are not strict UTF-8, -32600
 * for a bad envelope, -32602 for params that are not an object), carrying the request id whenever
 * it could be read. Encoding
 * writes each message exactly once to UTF-8 bytes with no newline inside, ready for any
 * transport.
 *
 * <p>Thread-safe and stateless.
 */
public final class MessageCodec {
  private MessageCodec() {}

  /** Decodes one frame (a stdio line, an HTTP body). */
  public static DecodedMessage decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /** Decodes one frame from a slice of a buffer. */
  public static DecodedMessage decode(byte[] bytes, int offset, int length) {
    DecodedMessage refused = refused(bytes, offset, length);
    if (refused != null) {
      return refused;
    }
    // The common messages are read by hand, straight from the bytes into the mapper's tree (no
    // parser to set up; and a process that has not built the mapper yet does not build it for
    // them); anything else, invalid input included, goes to the mapper, which words every error.
    ObjectNode direct = DirectJson.readObject(bytes, offset, length);
    if (direct != null) {
      return classify(direct);
    }
    return parse(bytes, offset, length);
  }

  /** {@link #decode(byte[], int, int)} without the hand-written reader (tests compare the two). */
  static DecodedMessage decodeWithMapper(byte[] bytes, int offset, int length) {
    DecodedMessage refused = refused(bytes, offset, length);
    return refused != null ? refused : parse(bytes, offset, length);
  }

  /** The parse error for a frame no parser may see (too large, not UTF-8), or null. */
  private static DecodedMessage.@Nullable Invalid refused(byte[] bytes, int offset, int length) {
    if (length > McpJson.MAX_DOCUMENT_BYTES) {
      return parseError(
          "Parse error: message larger than " + McpJson.MAX_DOCUMENT_BYTES + " bytes");
    }
    if (Utf8.firstInvalid(bytes, offset, length) >= 0) {
      // never let the parser guess: overlong forms would decode to other characters
      return parseError("Parse error: the message is not valid UTF-8");
    }
    return null;
  }

  /** The mapper's reading of a checked slice. */
  private static DecodedMessage parse(byte[] bytes, int offset, int length) {
    JsonNode tree;
    try {
      tree = McpJson.mapper().readTree(bytes, offset, length);
    } catch (StreamConstraintsException e) {
      return parseError("Parse error: " + limitMessage(e));
    } catch (JacksonException e) {
      return parseError("Parse error: invalid JSON");
    } catch (NumberFormatException e) {
      // Jackson refuses a number it cannot hold (an exponent beyond int range) with this
      return parseError("Parse error: number out of range");
    } catch (StackOverflowError e) {
      return parseError("Parse error: nesting too deep");
    }
    return classify(tree);
  }

  /** Decodes one frame from a string. */
  public static DecodedMessage decode(String text) {
    return decode(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Classifies an already parsed tree. */
  public static DecodedMessage classify(JsonNode tree) {
    if (tree == null || tree.isMissingNode()) {
      return invalid(null, "Invalid request: empty message", true);
    }
    if (tree.isArray()) {
      ArrayNode array = (ArrayNode) tree;
      if (array.isEmpty()) {
        return invalid(null, "Invalid request: empty batch", true);
      }
      List<DecodedMessage> items = new ArrayList<>(array.size());
      for (JsonNode item : array) {
        items.add(
            item.isArray() ? invalid(null, "Invalid request: nested batch", true) : classify(item));
      }
      return new DecodedMessage.Batch(List.copyOf(items));
    }
    if (!tree.isObject()) {
      return invalid(null, "Invalid request: not a JSON object", true);
    }
    ObjectNode obj = (ObjectNode) tree;
    JsonNode idNode = obj.get("id");
    JsonNode method = obj.get("method");
    boolean isRequestLike = method != null;
    RequestId id = null;
    boolean idBad = false;
    // "id": null is legal only on an error response whose request id could not be read.
    boolean idNull = idNode != null && idNode.isNull();
    if (idNode != null && !idNull) {
      try {
        id = RequestId.fromJson(idNode);
      } catch (IllegalArgumentException e) {
        idBad = true;
      }
    }
    JsonNode version = obj.get("jsonrpc");
    if (version == null || !version.isString() || !"2.0".equals(version.stringValue())) {
      return invalid(
          id, "Invalid request: jsonrpc must be \"2.0\"", isRequestLike || idNode == null);
    }
    if (isRequestLike) {
      if (!method.isString()) {
        return invalid(id, "Invalid request: method must be a string", true);
      }
      if (idBad || idNull) {
        return invalid(null, "Invalid request: id must be a string or an integer", true);
      }
      JsonNode params = obj.get("params");
      if (params != null && !params.isObject() && !params.isNull()) {
        if (id == null) {
          return invalid(null, "Invalid params: params must be an object", false);
        }
        return new DecodedMessage.Invalid(
            id,
            new JsonRpcMessage.ErrorObject(
                ErrorCodes.INVALID_PARAMS, "Invalid params: params must be an object", null),
            true);
      }
      ObjectNode p = params instanceof ObjectNode o ? o : null;
      if (id == null) { // no id member (a null or bad one was refused above): a notification
        return new DecodedMessage.Valid(new JsonRpcMessage.Notification(method.stringValue(), p));
      }
      return new DecodedMessage.Valid(new JsonRpcMessage.Request(id, method.stringValue(), p));
    }
    // A response.
    JsonNode result = obj.get("result");
    JsonNode error = obj.get("error");
    if (result != null && error != null) {
      return invalid(id, "Invalid response: both result and error", false);
    }
    if (result != null) {
      if (id == null) {
        return invalid(null, "Invalid response: result without a valid id", false);
      }
      return new DecodedMessage.Valid(new JsonRpcMessage.Result(id, result));
    }
    if (error != null) {
      if (!error.isObject()) {
        return invalid(id, "Invalid response: error must be an object", false);
      }
      JsonNode code = error.get("code");
      JsonNode message = error.get("message");
      if (code == null || !code.isIntegralNumber() || !code.canConvertToInt()) {
        return invalid(id, "Invalid response: error.code must be an integer", false);
      }
      if (idBad) {
        return invalid(null, "Invalid response: bad id", false);
      }
      String text = message != null && message.isString() ? message.stringValue() : "";
      return new DecodedMessage.Valid(
          new JsonRpcMessage.Error(
              id, new JsonRpcMessage.ErrorObject(code.intValue(), text, error.get("data"))));
    }
    return invalid(id, "Invalid request: no method, result or error", true);
  }

  /** Encodes one message to UTF-8 JSON bytes (no trailing newline). */
  public static byte[] encode(JsonRpcMessage message) {
    // The common messages are written by hand, the same bytes as the mapper's (see decode)
    byte[] direct = DirectJson.write(message);
    return direct != null ? direct : encodeWithMapper(message);
  }

  /** {@link #encode} by the mapper alone (for tests). */
  static byte[] encodeWithMapper(JsonRpcMessage message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator gen = McpJson.mapper().createGenerator(out)) {
      write(gen, message);
    }
    return out.toByteArray();
  }

  private static final byte[] PROGRESS_HEAD =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] PROGRESS_FIELD =
      ",\"progress\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] TOTAL_FIELD =
      ",\"total\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] MESSAGE_FIELD =
      ",\"message\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * Encodes {@code notifications/progress} straight to bytes, without a params tree or a generator
   * (the progress hot path): exactly the bytes {@link #encode} gives for the notification whose
   * params are {@code {progressToken, progress, total?, message?}} in that order, with each number
   * as {@code BigDecimal.valueOf(double)} writes it. Only for plain text: returns {@code null}
   * when the token or the message has a character JSON escapes or a non-ASCII one (the caller then
   * encodes the tree).
   */
  public static byte @Nullable [] progress(
      ProgressToken token, double progress, @Nullable Double total, @Nullable String message) {
    String text = token instanceof ProgressToken.Text t ? t.value() : null;
    if ((text != null && !plainAscii(text)) || (message != null && !plainAscii(message))) {
      return null;
    }
    String tokenNumber = token instanceof ProgressToken.Number n ? Long.toString(n.value()) : null;
    double tot = total == null ? 0 : total;
    String p = wholeNumber(progress) ? null : decimal(progress);
    String t = total == null || wholeNumber(tot) ? null : decimal(tot);
    int size =
        PROGRESS_HEAD.length
            + (text != null
                ? text.length() + 2
                : java.util.Objects.requireNonNull(tokenNumber).length())
            + PROGRESS_FIELD.length
            + (p == null ? wholeLength((long) progress) : p.length())
            + (total == null
                ? 0
                : TOTAL_FIELD.length + (t == null ? wholeLength((long) tot) : t.length()))
            + (message == null ? 0 : MESSAGE_FIELD.length + message.length() + 1)
            + 2;
    byte[] b = new byte[size];
    int at = put(b, 0, PROGRESS_HEAD);
    if (text != null) {
      b[at++] = '"';
      at = put(b, at, text);
      b[at++] = '"';
    } else {
      at = put(b, at, java.util.Objects.requireNonNull(tokenNumber));
    }
    at = put(b, at, PROGRESS_FIELD);
    at = p == null ? putWhole(b, at, (long) progress) : put(b, at, p);
    if (total != null) {
      at = put(b, at, TOTAL_FIELD);
      at = t == null ? putWhole(b, at, (long) tot) : put(b, at, t);
    }
    if (message != null) {
      at = put(b, at, MESSAGE_FIELD);
      at = put(b, at, message);
      b[at++] = '"';
    }
    b[at++] = '}';
    b[at] = '}';
    return b;
  }

  /**
   * Whether {@code d} is a whole number below 10^7 in magnitude: {@code Double.toString}, and so
   * {@code BigDecimal.valueOf}, writes it as its digits and {@code ".0"} (minus zero as {@code
   * 0.0}), which {@link #putWhole} writes without a string.
   */
  private static boolean wholeNumber(double d) {
    long l = (long) d;
    return l == d && l > -10_000_000L && l < 10_000_000L;
  }

  /** Characters of a whole number below 10^7 as {@link #putWhole} writes it: sign, digits, ".0". */
  private static int wholeLength(long l) {
    return (l < 0 ? 3 : 2) + digits((int) Math.abs(l));
  }

  /** Decimal digits of {@code 0 <= v < 10^7}, by comparison (this runs for every progress). */
  private static int digits(int v) {
    return v < 10
        ? 1
        : v < 100 ? 2 : v < 1_000 ? 3 : v < 10_000 ? 4 : v < 100_000 ? 5 : v < 1_000_000 ? 6 : 7;
  }

  private static int putWhole(byte[] b, int at, long l) {
    int end = at + wholeLength(l);
    b[end - 1] = '0';
    b[end - 2] = '.';
    int v = (int) Math.abs(l); // below 10^7 (wholeNumber)
    int i = end - 3;
    do {
      int q = v / 10;
      b[i--] = (byte) ('0' + (v - q * 10));
      v = q;
    } while (v > 0);
    if (l < 0) {
      b[i] = '-';
    }
    return end;
  }

  /** {@code BigDecimal.valueOf(d).toString()}, without the {@code BigDecimal} when it can. */
  static String decimal(double d) {
    String s = Double.toString(d);
    // plain notation (no exponent) reads back the same through BigDecimal, except minus zero
    return s.indexOf('E') < 0 && d != 0 ? s : java.math.BigDecimal.valueOf(d).toString();
  }

  private static boolean plainAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private static int put(byte[] b, int at, byte[] src) {
    System.arraycopy(src, 0, b, at, src.length);
    return at + src.length;
  }

  @SuppressWarnings(
      "deprecation") // ASCII only (checked by the caller): getBytes(int,int,byte[],int)
  private static int put(byte[] b, int at, String ascii) {
    ascii.getBytes(0, ascii.length(), b, at);
    return at + ascii.length();
  }

  /** Encodes one message to a string (no trailing newline). */
  public static String encodeToString(JsonRpcMessage message) {
    return new String(encode(message), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Writes one message to a generator. */
  public static void write(JsonGenerator gen, JsonRpcMessage message) {
    gen.writeStartObject();
    gen.writeStringProperty("jsonrpc", "2.0");
    switch (message) {
      case JsonRpcMessage.Request r -> {
        writeId(gen, r.id());
        gen.writeStringProperty("method", r.method());
        if (r.params() != null) {
          gen.writeName("params");
          McpJson.mapper().writeTree(gen, r.params());
        }
      }
      case JsonRpcMessage.Notification n -> {
        gen.writeStringProperty("method", n.method());
        if (n.params() != null) {
          gen.writeName("params");
          McpJson.mapper().writeTree(gen, n.params());
        }
      }
      case JsonRpcMessage.Result r -> {
        writeId(gen, r.id());
        gen.writeName("result");
        McpJson.mapper().writeTree(gen, r.result());
      }
      case JsonRpcMessage.Error e -> {
        if (e.id() == null) {
          gen.writeNullProperty("id");
        } else {
          writeId(gen, e.id());
        }
        gen.writeName("error");
        gen.writeStartObject();
        gen.writeNumberProperty("code", e.error().code());
        gen.writeStringProperty("message", e.error().message());
        if (e.error().data() != null) {
          gen.writeName("data");
          McpJson.mapper().writeTree(gen, e.error().data());
        }
        gen.writeEndObject();
      }
    }
    gen.writeEndObject();
  }

  private static void writeId(JsonGenerator gen, RequestId id) {
    switch (id) {
      case RequestId.Text t -> gen.writeStringProperty("id", t.value());
      case RequestId.Number n -> gen.writeNumberProperty("id", n.value());
    }
  }

  /** Builds the error response for an invalid frame, or {@code null} when none is owed. */
  public static JsonRpcMessage.Error errorFor(DecodedMessage.Invalid invalid) {
    return new JsonRpcMessage.Error(invalid.id(), invalid.error());
  }

  private static DecodedMessage.Invalid parseError(String message) {
    return new DecodedMessage.Invalid(
        null, new JsonRpcMessage.ErrorObject(ErrorCodes.PARSE_ERROR, message, null), true);
  }

  private static DecodedMessage.Invalid invalid(
      @Nullable RequestId id, String message, boolean answerable) {
    return new DecodedMessage.Invalid(
        id, new JsonRpcMessage.ErrorObject(ErrorCodes.INVALID_REQUEST, message, null), answerable);
  }

  private static String limitMessage(StreamConstraintsException e) {
    String m = e.getOriginalMessage();
    if (m != null && m.contains("nesting depth")) {
      return "nesting deeper than " + McpJson.MAX_NESTING_DEPTH;
    }
    if (m != null && (m.contains("length") || m.contains("Length"))) {
      return "message too large";
    }
    return "limit exceeded";
  }
}
