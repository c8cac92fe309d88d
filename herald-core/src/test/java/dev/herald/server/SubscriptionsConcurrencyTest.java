package dev.herald.server;

import dev.herald.internal.session.TableChecks;
import dev.herald.wire.McpException;
import java.util.List;
import java.util.TreeSet;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The server's resource subscriptions under concurrency (Lincheck): subscribe, unsubscribe, the
 * per-session cap, a session ending and the fan-out of {@code resources/updated} racing each other.
 * Every concurrent history must be explainable by some order of the operations one at a time: a
 * session never holds more subscriptions than the cap, and an update reaches exactly the sessions
 * subscribed to its uri at that point.
 *
 * <p>Two open sessions, two uris, a cap of one, so the cap is reached in most scenarios. No test
 * lock: requests of different sessions (and pipelined requests of one) reach the table from
 * different threads, and an update can be published from any thread.
 */
public class SubscriptionsConcurrencyTest {
  private static final McpServer SERVER = McpServer.builder().build();
  // connected once (a session per scenario would cost more than the checks): only the table is
  // new for every scenario, and the sessions are only its keys
  private static final ServerSession[] SESSIONS = {
    SERVER.connect(MemoryTransport.pair()[1]), SERVER.connect(MemoryTransport.pair()[1])
  };
  private static final String[] URIS = {"demo://a", "demo://b"};

  private final Subscriptions subscriptions = new Subscriptions(1);

  /** A {@code resources/subscribe}: empty when accepted, the error code when refused. */
  @Operation
  public String subscribe(
      @Param(gen = IntGen.class, conf = "0:1") int session,
      @Param(gen = IntGen.class, conf = "0:1") int uri) {
    try {
      subscriptions.subscribe(SESSIONS[session], URIS[uri]);
      return "";
    } catch (McpException e) {
      return String.valueOf(e.code());
    }
  }

  /** A {@code resources/unsubscribe}: whether the session held the subscription. */
  @Operation
  public boolean unsubscribe(
      @Param(gen = IntGen.class, conf = "0:1") int session,
      @Param(gen = IntGen.class, conf = "0:1") int uri) {
    return subscriptions.unsubscribe(SESSIONS[session], URIS[uri]);
  }

  /** A session ending: every subscription of it goes. */
  @Operation
  public void drop(@Param(gen = IntGen.class, conf = "0:1") int session) {
    subscriptions.drop(SESSIONS[session]);
  }

  /** The sessions an update of {@code uri} is sent to, as the server fans it out. */
  @Operation
  public String update(@Param(gen = IntGen.class, conf = "0:1") int uri) {
    return names(subscriptions.subscribers(URIS[uri]));
  }

  /** What one session holds; never more than the cap. */
  @Operation
  public String held(@Param(gen = IntGen.class, conf = "0:1") int session) {
    return String.join(",", new TreeSet<>(subscriptions.of(SESSIONS[session])));
  }

  private static String names(List<ServerSession> sessions) {
    TreeSet<Integer> names = new TreeSet<>();
    for (ServerSession s : sessions) {
      names.add(s == SESSIONS[0] ? 0 : 1);
    }
    return names.toString();
  }

  @Test
  void everyHistoryOfSubscribeUnsubscribeCapAndUpdateIsLinearizable() {
    TableChecks.check(getClass(), 1);
  }
}
