package dev.herald.http;

import static dev.herald.http.HttpExchanges.reject;

import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.jspecify.annotations.Nullable;

/**
 * The Jetty handler: checks every request (Host, Origin, path, method, headers, body) and hands
 * what passes to the session it names.
 *
 * <p>Design note (spec 2025-11-25 basic/transports §Streamable HTTP, §Security Warning, §Session
 * Management, §Protocol Version Header). Checks run cheapest first and every refusal carries an
 * id-less JSON-RPC error body, so a client always learns why. Nothing here blocks: bodies are
 * read with demand callbacks, and an exchange waiting for its answer is left to its {@link
 * SseStream}.
 *
 * <p>Stateless apart from the server it serves; thread-safe.
 */
final class McpHandler extends Handler.Abstract.NonBlocking {
  private final McpHttpServer server;

  McpHandler(McpHttpServer server) {
    this.server = server;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    var headers = request.getHeaders();
    if (!server.hostAllowed(headers.get(HttpHeader.HOST))) {
      reject(response, callback, 403, "Forbidden: Host not allowed");
      return true;
    }
    if (!server.originAllowed(headers.get(HttpHeader.ORIGIN))) {
      reject(response, callback, 403, "Forbidden: Origin not allowed");
      return true;
    }
    String path = request.getHttpURI().getPath();
    String method = request.getMethod();
    if (server.path.equals(path)) {
      switch (method) {
        case "POST" -> post(request, response, callback);
        case "GET" -> get(request, response, callback);
        case "DELETE" -> delete(request, response, callback);
        default -> notAllowed(response, callback, "GET, POST, DELETE");
      }
    } else if (server.legacy && server.legacySsePath.equals(path)) {
      if ("GET".equals(method)) {
        legacyGet(request, response, callback);
      } else {
        notAllowed(response, callback, "GET");
      }
    } else if (server.legacy && server.legacyPostPath.equals(path)) {
      if ("POST".equals(method)) {
        legacyPost(request, response, callback);
      } else {
        notAllowed(response, callback, "POST");
      }
    } else {
      reject(response, callback, 404, "Not Found");
    }
    return true;
  }

  // ---------------------------------------------------------------- Streamable HTTP

  private void post(Request request, Response response, Callback callback) {
    var headers = request.getHeaders();
    String accept = headers.get(HttpHeader.ACCEPT);
    if (!HttpExchanges.accepts(accept, HttpExchanges.JSON) || !HttpExchanges.accepts(accept, HttpExchanges.SSE)) {
      reject(response, callback, 406, "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    if (!HttpExchanges.isJson(headers.get(HttpHeader.CONTENT_TYPE))) {
      reject(response, callback, 415, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    if (!versionOk(request, response, callback)) {
      return;
    }
    readMessage(request, response, callback, message -> {
      String sessionId = headers.get(HttpExchanges.SESSION_HEADER);
      HttpExchanges.Held held = new HttpExchanges.Held(request, response, callback);
      if (sessionId == null) {
        if (message instanceof JsonRpcMessage.Request r && McpMethods.INITIALIZE.equals(r.method())) {
          if (!server.reserveSession()) {
            HttpExchanges.error(response, callback, 503, r.id(), ErrorCodes.LIMIT_EXCEEDED,
                "Server busy: the session limit (" + server.maxSessions + ") is reached; try again later");
            return;
          }
          server.newSession().acceptRequest(r, held, true);
        } else {
          reject(response, callback, 400, "Bad Request: Mcp-Session-Id header is required");
        }
        return;
      }
      HttpSession session = session(sessionId, response, callback);
      if (session == null) {
        return;
      }
      if (message instanceof JsonRpcMessage.Request r) {
        if (!session.acceptRequest(r, held, false)) {
          HttpExchanges.error(response, callback, 400, r.id(), ErrorCodes.INVALID_REQUEST,
              "Invalid request: id " + r.id() + " is already in use by an open request");
        }
      } else {
        session.deliver(new DecodedMessage.Valid(message));
        HttpExchanges.empty(response, callback, 202, session.id);
      }
    });
  }

  private void get(Request request, Response response, Callback callback) {
    if (!HttpExchanges.accepts(request.getHeaders().get(HttpHeader.ACCEPT), HttpExchanges.SSE)) {
      reject(response, callback, 406, "Not Acceptable: Accept must list text/event-stream");
      return;
    }
    if (!versionOk(request, response, callback)) {
      return;
    }
    String sessionId = request.getHeaders().get(HttpExchanges.SESSION_HEADER);
    if (sessionId == null) {
      reject(response, callback, 400, "Bad Request: Mcp-Session-Id header is required");
      return;
    }
    HttpSession session = session(sessionId, response, callback);
    if (session == null) {
      return;
    }
    String lastEventId = request.getHeaders().get(HttpExchanges.LAST_EVENT_ID);
    SseStream stream;
    long after = -1;
    if (lastEventId == null) {
      stream = session.standing();
    } else {
      int sep = lastEventId.indexOf('_');
      stream = sep <= 0 ? null : session.stream(lastEventId.substring(0, sep));
      after = sep <= 0 ? -1 : parseSeq(lastEventId.substring(sep + 1));
      if (stream == null || after < 0) {
        reject(response, callback, 400, "Bad Request: unknown Last-Event-ID");
        return;
      }
    }
    SseSink sink = session.newSink(response, callback);
    request.addIdleTimeoutListener(x -> false); // keep-alive comments keep it honest
    request.addFailureListener(sink::fail);
    switch (stream.attach(sink, after)) {
      case OK -> session.touch();
      case CONFLICT -> reject(response, callback, 409, "Conflict: this session already has an open GET stream");
      case GONE -> reject(response, callback, 404, "Session not found");
    }
  }

  private void delete(Request request, Response response, Callback callback) {
    String sessionId = request.getHeaders().get(HttpExchanges.SESSION_HEADER);
    if (sessionId == null) {
      reject(response, callback, 400, "Bad Request: Mcp-Session-Id header is required");
      return;
    }
    HttpSession session = session(sessionId, response, callback);
    if (session != null) {
      session.close();
      HttpExchanges.empty(response, callback, 200, null);
    }
  }

  private @Nullable HttpSession session(String id, Response response, Callback callback) {
    HttpSession session = server.sessions.get(id);
    if (session == null || session.isClosed()) {
      reject(response, callback, 404, "Session not found");
      return null;
    }
    return session;
  }

  private boolean versionOk(Request request, Response response, Callback callback) {
    String v = null;
    for (String value : request.getHeaders().getValuesList(HttpExchanges.PROTOCOL_HEADER)) {
      if (ProtocolVersion.parse(value.trim()).isEmpty()) {
        v = value;
        break;
      }
    }
    if (v == null) {
      return true; // absent means 2025-03-26; every supported version is accepted
    }
    HttpExchanges.error(response, callback, 400, null, ErrorCodes.INVALID_REQUEST,
        "Bad Request: unsupported MCP-Protocol-Version", HttpExchanges.supportedVersions(v));
    return false;
  }

  private static long parseSeq(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return -1;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(s);
  }

  /** Reads and decodes one message; refusals (413, 400) are answered here. */
  private void readMessage(Request request, Response response, Callback callback, Consumer<JsonRpcMessage> then) {
    long length = request.getLength();
    if (length > server.maxBodyBytes) {
      reject(response, callback, 413, "Content Too Large: the body limit is " + server.maxBodyBytes + " bytes");
      return;
    }
    HttpExchanges.readBody(request, server.maxBodyBytes, body -> {
      if (body == null) {
        reject(response, callback, 413, "Content Too Large: the body limit is " + server.maxBodyBytes + " bytes");
        return;
      }
      switch (MessageCodec.decode(body)) {
        case DecodedMessage.Valid v -> then.accept(v.message());
        case DecodedMessage.Invalid bad ->
            HttpExchanges.error(response, callback, 400, bad.id(), bad.error().code(), bad.error().message());
        case DecodedMessage.Batch b ->
            reject(response, callback, 400, "Invalid request: batches are not supported; send one message per POST");
      }
    }, callback::failed);
  }

  private static void notAllowed(Response response, Callback callback, String allow) {
    response.getHeaders().put(HttpHeader.ALLOW, allow);
    reject(response, callback, 405, "Method Not Allowed");
  }

  // ---------------------------------------------------------------- legacy HTTP+SSE

  private void legacyGet(Request request, Response response, Callback callback) {
    if (!server.reserveSession()) {
      HttpExchanges.error(response, callback, 503, null, ErrorCodes.LIMIT_EXCEEDED,
          "Server busy: the session limit (" + server.maxSessions + ") is reached; try again later");
      return;
    }
    SseSink sink = new SseSink(response, callback, server.queueFrames, server.queueBytes, null, System.nanoTime());
    request.addIdleTimeoutListener(x -> false);
    request.addFailureListener(sink::fail);
    LegacySession session = new LegacySession(server, McpHttpServer.newSessionId(), sink);
    server.legacySessions.put(session.id, session);
    session.open(server.legacyPostPath);
  }

  private void legacyPost(Request request, Response response, Callback callback) {
    if (!HttpExchanges.isJson(request.getHeaders().get(HttpHeader.CONTENT_TYPE))) {
      reject(response, callback, 415, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    Fields query = Request.extractQueryParameters(request);
    String id = query.getValue("sessionId");
    LegacySession session = id == null ? null : server.legacySessions.get(id);
    if (session == null) {
      reject(response, callback, 404, "Session not found");
      return;
    }
    readMessage(request, response, callback, message -> {
      session.deliver(new DecodedMessage.Valid(message));
      response.setStatus(202);
      response.write(true, java.nio.ByteBuffer.wrap(HttpExchanges.ascii("Accepted")), callback);
    });
  }
}
