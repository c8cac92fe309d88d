package dev.herald.server;

import dev.herald.client.McpClient;
import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.RequestHandler;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.testing.Eventually;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Connects clients to an {@link McpServer} in memory. */
final class Peers {
  private Peers() {}

  /** A real {@link McpClient}, its server session and the client end of the wire (for recording). */
  record Peer(McpClient client, ServerSession session, MemoryTransport wire)
      implements AutoCloseable {
    /** Sends a raw request and waits for its result. */
    JsonNode request(String method, ObjectNode params) throws Exception {
      return await(EngineAccess.of(client).request(method, params).result());
    }

    /** Sends a raw request and returns the error it must fail with. */
    McpException error(String method, ObjectNode params) throws Exception {
      try {
        JsonNode result = await(EngineAccess.of(client).request(method, params).result());
        throw new AssertionError(method + " succeeded with " + result);
      } catch (McpException e) {
        return e;
      }
    }

    @Override
    public void close() {
      client.close();
    }
  }

  /** A client built on a bare session engine so that the test answers the server's requests. */
  record RawPeer(SessionEngine engine, ServerSession session, MemoryTransport wire)
      implements AutoCloseable {
    JsonNode request(String method, ObjectNode params) throws Exception {
      return await(engine.request(method, params).result());
    }

    @Override
    public void close() {
      engine.close();
    }
  }

  static Peer connect(McpServer server) throws InterruptedException {
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = server.connect(wire[1]);
    McpClient client =
        McpClient.builder()
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
            .info("test-client", "1.0")
            .connect(wire[0]);
    awaitTrue(() -> session.state() == ServerSession.State.OPERATING);
    return new Peer(client, session, wire[0]);
  }

  static RawPeer connectRaw(McpServer server, ClientCapabilities caps, RequestHandler handler)
      throws Exception {
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = server.connect(wire[1]);
    SessionEngine engine =
        SessionEngine.builder().name("raw-client").transport(wire[0]).requests(handler).build();
    engine.start();
    InitializeParams init =
        new InitializeParams(
            ProtocolVersion.LATEST_LEGACY.wire(),
            caps,
            Implementation.of("raw-client", "1.0"),
            null);
    await(
        engine
            .request(McpMethods.INITIALIZE, McpJson.toObject(init), CallOptions.defaults(), null)
            .result());
    engine.version(ProtocolVersion.LATEST_LEGACY);
    engine.notify(McpMethods.INITIALIZED, null, null);
    awaitTrue(() -> session.state() == ServerSession.State.OPERATING);
    return new RawPeer(engine, session, wire[0]);
  }

  static <T> T await(java.util.concurrent.CompletableFuture<T> f) throws Exception {
    try {
      return f.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception c) {
        throw c;
      }
      throw e;
    }
  }

  /** Waits (bounded) for a condition that another thread makes true. */
  static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    Eventually.eventually(condition, "the condition holds");
  }
}
