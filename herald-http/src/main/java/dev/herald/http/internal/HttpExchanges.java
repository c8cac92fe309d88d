package dev.herald.http.internal;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Small pieces of HTTP shared by the handlers: header names, and JSON, JSON-RPC error and empty
 * answers written to an {@link Exchange}. Stateless.
 */
final class HttpExchanges {
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String PROTOCOL_HEADER = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID = "Last-Event-ID";
  static final String JSON = "application/json";
  static final String SSE = "text/event-stream";

  private HttpExchanges() {}

  /** A completion that needs no action: the exchange itself ends with its last write. */
  static final Exchange.Done IGNORE =
      new Exchange.Done() {
        @Override
        public void succeeded() {}

        @Override
        public void failed(Throwable cause) {}
      };

  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  /** Answers with one JSON body. */
  static void json(Exchange ex, int status, byte[] body, @Nullable String sessionId) {
    ex.jsonHead(status, body.length);
    if (sessionId != null) {
      ex.header(SESSION_HEADER, sessionId);
    }
    ex.write(ByteBuffer.wrap(body), true, IGNORE);
  }

  /** Answers with a JSON-RPC error body ({@code id} null when there is no request to name). */
  static void error(Exchange ex, int status, @Nullable RequestId id, int code, String message) {
    error(ex, status, id, code, message, null);
  }

  static void error(
      Exchange ex,
      int status,
      @Nullable RequestId id,
      int code,
      String message,
      @Nullable JsonNode data) {
    byte[] body =
        MessageCodec.encode(
            new JsonRpcMessage.Error(id, new JsonRpcMessage.ErrorObject(code, message, data)));
    json(ex, status, body, null);
  }

  /** A JSON-RPC "invalid request" error answered with {@code status}. */
  static void reject(Exchange ex, int status, String message) {
    error(ex, status, null, ErrorCodes.INVALID_REQUEST, message);
  }

  /** Answers with a status and no body. */
  static void empty(Exchange ex, int status, @Nullable String sessionId) {
    ex.status(status);
    if (sessionId != null) {
      ex.header(SESSION_HEADER, sessionId);
    }
    ex.write(EMPTY.duplicate(), true, IGNORE);
  }

  /** Whether an {@code Accept} header lists {@code type} (parameters and q-values ignored). */
  static boolean accepts(@Nullable String accept, String type) {
    if (accept == null) {
      return false;
    }
    // each comma-separated part, read in place (no split, no substrings: it runs on every POST)
    int n = accept.length();
    for (int start = 0; start <= n; ) {
      int comma = accept.indexOf(',', start);
      int end = comma < 0 ? n : comma;
      int typeEnd = start;
      while (typeEnd < end && accept.charAt(typeEnd) != ';') {
        typeEnd++;
      }
      int from = start;
      while (from < typeEnd && accept.charAt(from) <= ' ') { // as String.trim
        from++;
      }
      int to = typeEnd;
      while (to > from && accept.charAt(to - 1) <= ' ') {
        to--;
      }
      if (to - from == type.length() && accept.regionMatches(true, from, type, 0, type.length())) {
        return true;
      }
      start = end + 1;
    }
    return false;
  }

  /** Whether a {@code Content-Type} is JSON ({@code application/json}, any parameters). */
  static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().equalsIgnoreCase(JSON);
  }

  static JsonNode supportedVersions(String requested) {
    var data = McpJson.object();
    var arr = data.putArray("supported");
    for (String v : dev.herald.wire.ProtocolVersion.supportedWire()) {
      arr.add(v);
    }
    data.put("requested", requested);
    return data;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
