package dev.herald.internal.session;

import dev.herald.session.CountingEventListener;
import dev.herald.transport.InMemoryTransport;
import java.util.function.Consumer;

/**
 * One session engine on the "server" end of an in-memory pair, with the test as its raw peer: the
 * test injects frames into the engine's end and reads what the engine sent from the same end.
 * The other end is never started, so nothing reads it.
 */
final class OneEngine implements AutoCloseable {
  final InMemoryTransport.Pair wire = InMemoryTransport.pair();
  final SessionEngine engine;

  /** What the engine reported to its event listener. */
  final CountingEventListener events = new CountingEventListener();

  OneEngine(RequestHandler handler, Consumer<SessionEngine.Builder> config) {
    SessionEngine.Builder b =
        SessionEngine.builder()
            .name("engine")
            .transport(wire.server())
            .requests(handler)
            .eventListener(events);
    config.accept(b);
    engine = b.build();
    engine.start();
  }

  OneEngine(RequestHandler handler) {
    this(handler, b -> {});
  }

  /** The engine's end: inject into it, read what the engine sent from it. */
  InMemoryTransport end() {
    return wire.server();
  }

  void inject(String frame) {
    wire.server().inject(frame);
  }

  @Override
  public void close() {
    engine.close();
  }
}
