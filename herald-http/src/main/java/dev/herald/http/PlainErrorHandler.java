package dev.herald.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/**
 * Jetty's error pages with no internals: whatever failed (a handler's exception, an {@code
 * OutOfMemoryError}, a malformed request line), the body is an id-less JSON-RPC error whose
 * message is the status's standard reason ("Internal error" for 500), never an exception's name,
 * message or stack. The details go to the log only.
 *
 * <p>Stateless; thread-safe.
 */
final class PlainErrorHandler extends ErrorHandler {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");

  PlainErrorHandler() {
    setShowStacks(false);
    setShowCauses(false);
    setShowMessageInTitle(false);
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      @Nullable String message,
      @Nullable Throwable cause,
      Callback callback) {
    if (cause != null) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "HTTP " + code + " for " + request.getHttpURI().getPath(),
          cause);
    }
    byte[] body = body(code);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, Integer.toString(body.length));
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  @Override
  @SuppressWarnings(
      "removal") // Jetty 12 still calls it for a request it cannot parse; no replacement hook yet
  public ByteBuffer badMessageError(
      int status, @Nullable String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return ByteBuffer.wrap(body(status));
  }

  /** {@code {"jsonrpc":"2.0","id":null,"error":{"code":-32603 or -32600,"message":<reason>}}}. */
  static byte[] body(int status) {
    String reason = status == 500 ? "Internal error" : HttpStatus.getMessage(status);
    int code = status >= 500 ? -32603 : -32600;
    String json =
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
            + code
            + ",\"message\":\""
            + reason.replace("\"", "'")
            + "\"}}";
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
