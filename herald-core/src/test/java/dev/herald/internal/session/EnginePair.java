package dev.herald.internal.session;

import dev.herald.session.CountingEventListener;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.McpException;
import java.util.function.Consumer;

/**
 * Two session engines connected by an in-memory pair: a "client" that calls, a "server" whose
 * {@link RequestHandler} plays the tools. Either side's builder can be adjusted.
 */
final class EnginePair implements AutoCloseable {
  final InMemoryTransport.Pair wire = InMemoryTransport.pair();
  final SessionEngine client;
  final SessionEngine server;

  /** What each side reported to its event listener. */
  final CountingEventListener clientEvents = new CountingEventListener();

  final CountingEventListener serverEvents = new CountingEventListener();

  EnginePair(RequestHandler serverHandler) {
    this(serverHandler, b -> {}, b -> {});
  }

  EnginePair(
      RequestHandler serverHandler,
      Consumer<SessionEngine.Builder> clientConfig,
      Consumer<SessionEngine.Builder> serverConfig) {
    SessionEngine.Builder c =
        SessionEngine.builder()
            .name("client")
            .transport(wire.client())
            .requests(unknownMethod())
            .eventListener(clientEvents);
    clientConfig.accept(c);
    SessionEngine.Builder s =
        SessionEngine.builder()
            .name("server")
            .transport(wire.server())
            .requests(serverHandler)
            .eventListener(serverEvents);
    serverConfig.accept(s);
    client = c.build();
    server = s.build();
    client.start();
    server.start();
  }

  /** What the client end sent. */
  InMemoryTransport clientEnd() {
    return wire.client();
  }

  /** What the server end sent. */
  InMemoryTransport serverEnd() {
    return wire.server();
  }

  static RequestHandler unknownMethod() {
    return call -> {
      throw McpException.methodNotFound(call.method());
    };
  }

  @Override
  public void close() {
    client.close();
    server.close();
  }
}
