package dev.herald.http;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Small pieces of HTTP shared by the handlers: header names, JSON and JSON-RPC error answers,
 * and a bounded non-blocking body read. Stateless.
 */
final class HttpExchanges {
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String PROTOCOL_HEADER = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID = "Last-Event-ID";
  static final String JSON = "application/json";
  static final String SSE = "text/event-stream";

  private HttpExchanges() {}

  /** A POST whose answer is not decided yet: JSON if the response comes first, else SSE. */
  record Held(Request request, Response response, Callback callback) {}

  /** Answers with one JSON body. */
  static void json(Response response, Callback callback, int status, byte[] body, @Nullable String sessionId) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    if (sessionId != null) {
      response.getHeaders().put(SESSION_HEADER, sessionId);
    }
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  /** Answers with a JSON-RPC error body ({@code id} null when there is no request to name). */
  static void error(Response response, Callback callback, int status, @Nullable RequestId id, int code, String message) {
    error(response, callback, status, id, code, message, null);
  }

  static void error(
      Response response, Callback callback, int status, @Nullable RequestId id, int code, String message, @Nullable JsonNode data) {
    byte[] body = MessageCodec.encode(new JsonRpcMessage.Error(id, new JsonRpcMessage.ErrorObject(code, message, data)));
    json(response, callback, status, body, null);
  }

  /** A JSON-RPC "invalid request" error answered with {@code status}. */
  static void reject(Response response, Callback callback, int status, String message) {
    error(response, callback, status, null, ErrorCodes.INVALID_REQUEST, message);
  }

  /** Answers with a status and no body. */
  static void empty(Response response, Callback callback, int status, @Nullable String sessionId) {
    response.setStatus(status);
    if (sessionId != null) {
      response.getHeaders().put(SESSION_HEADER, sessionId);
    }
    response.write(true, org.eclipse.jetty.util.BufferUtil.EMPTY_BUFFER, callback);
  }

  /** Whether an {@code Accept} header lists {@code type} (parameters and q-values ignored). */
  static boolean accepts(@Nullable String accept, String type) {
    if (accept == null) {
      return false;
    }
    for (String part : accept.split(",")) {
      int semi = part.indexOf(';');
      String t = (semi < 0 ? part : part.substring(0, semi)).trim();
      if (t.equalsIgnoreCase(type)) {
        return true;
      }
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

  /**
   * Reads a request body without blocking, refusing more than {@code max} bytes.
   *
   * @param done receives the body, or {@code null} when it was larger than {@code max}
   * @param failed receives a read failure (the client went away)
   */
  static void readBody(Request request, int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
    new BodyReader(request, max, done, failed).run();
  }

  private static final class BodyReader implements Runnable {
    private final Request request;
    private final int max;
    private final Consumer<byte @Nullable []> done;
    private final Consumer<Throwable> failed;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(512);

    BodyReader(Request request, int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
      this.request = request;
      this.max = max;
      this.done = done;
      this.failed = failed;
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          failed.accept(chunk.getFailure());
          return;
        }
        ByteBuffer buf = chunk.getByteBuffer();
        int n = buf.remaining();
        if (body.size() + (long) n > max) {
          chunk.release();
          done.accept(null);
          return;
        }
        if (n > 0) {
          if (buf.hasArray()) {
            body.write(buf.array(), buf.arrayOffset() + buf.position(), n);
          } else {
            byte[] tmp = new byte[n];
            buf.get(tmp);
            body.write(tmp, 0, n);
          }
        }
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          done.accept(body.toByteArray());
          return;
        }
      }
    }
  }
}
