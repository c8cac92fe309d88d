package dev.herald.peerbench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A child JVM holding one MCP client under test, Herald's {@code McpClient} ({@code herald}: its
 * transport as built by default, on herald-core's {@code Http1Client}; {@code herald-jdk}: on the
 * JDK {@code HttpClient}; {@code herald-jetty}: on herald-jetty-client) or the official Java SDK
 * 2.1.0's {@code McpSyncClient} ({@code sdk}), each on its own class path, against a server another
 * child runs. It measures itself and prints one {@code RESULT} line: process CPU is its own ({@link
 * Cpu}), read around the measured part only.
 *
 * <ul>
 *   <li>{@code <kind> load <own|shared> <uri> <threads> <warmupS> <measureS> <limitS>}: {@code
 *       threads} callers send {@code tools/call echo} back to back, each on a client of its own
 *       ({@code own}) or all on one ({@code shared}); warm-up for {@code warmupS} seconds, then
 *       calls counted for {@code measureS}. {@code RESULT <calls> <wallNanos> <cpuNanos>}, the CPU time the
 *       process spent while counted, the callers' own included.
 *   <li>{@code <kind> progress <uri> <count> <rounds> <limitS>}: one client calls {@code progress}
 *       with {@code count} notifications {@code rounds} times; the first half of the rounds is
 *       warm-up. {@code RESULT <notifications> <wallNanos> <cpuNanos>}.
 *   <li>{@code <kind> once <uri> <limitS>}: connects, makes one {@code echo} call and prints {@code
 *       RESULT 1} (the cold start to a first call result is timed by the driver).
 * </ul>
 */
public final class ClientMain {
  /** The name of every caller thread, then its number (its native name too: {@link Cpu}). */
  private static final String CALLER = "caller-";

  private ClientMain() {}

  /** One client connection, whichever implementation. */
  interface Client extends AutoCloseable {
    /** Calls {@code echo} and checks the answer. */
    void echo(String text) throws Exception;

    /** Calls {@code progress} with {@code count}; returns how many notifications arrived. */
    long progress(int count) throws Exception;

    @Override
    void close();
  }

  static Client connect(String kind, String uri) throws Exception {
    return switch (kind) {
      case "herald" -> HeraldClient.connect(uri, HeraldClient.Engine.DEFAULT);
      case "herald-jdk" -> HeraldClient.connect(uri, HeraldClient.Engine.JDK);
      case "herald-jetty" -> HeraldClient.connect(uri, HeraldClient.Engine.JETTY);
      case "sdk" -> SdkClient.connect(uri);
      default -> throw new IllegalArgumentException("unknown client " + kind);
    };
  }

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    String mode = args[1];
    TimeLimit.start(Long.parseLong(args[args.length - 1]), "client child " + kind);
    switch (mode) {
      case "once" -> {
        try (Client c = connect(kind, args[2])) {
          c.echo("first");
        }
        System.out.println("RESULT 1");
      }
      case "load" ->
          load(
              kind,
              args[2].equals("shared"),
              args[3],
              Integer.parseInt(args[4]),
              Long.parseLong(args[5]),
              Long.parseLong(args[6]));
      case "progress" ->
          progress(kind, args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
    System.out.flush();
    System.exit(0);
  }

  private static void load(
      String kind, boolean shared, String uri, int threads, long warmupS, long measureS)
      throws Exception {
    List<Client> clients = new ArrayList<>();
    try {
      for (int i = 0; i < (shared ? 1 : threads); i++) {
        clients.add(connect(kind, uri));
      }
      burst(clients, threads, TimeUnit.SECONDS.toNanos(warmupS), new LongAdder());
      LongAdder callers = new LongAdder();
      // The callers count their own CPU as they end; the readings leave every caller thread out,
      // the warm-up's included, whose kernel tasks may still be listed for a moment after join
      // (counted at the first reading and gone at the second, they made the figure negative).
      long cpu0 = Cpu.processNanosExcept(CALLER);
      long t0 = System.nanoTime();
      long calls = burst(clients, threads, TimeUnit.SECONDS.toNanos(measureS), callers);
      long wall = System.nanoTime() - t0;
      long cpu = Cpu.processNanosExcept(CALLER) - cpu0 + callers.sum();
      System.out.println("RESULT " + calls + " " + wall + " " + cpu);
    } finally {
      clients.forEach(Client::close);
    }
  }

  /**
   * Calls from {@code threads} platform threads until {@code nanos} have passed; returns the count.
   * Each caller adds the CPU time it spent (all of it in this burst: it was started for it) to
   * {@code callerCpu} as it ends.
   */
  private static long burst(List<Client> clients, int threads, long nanos, LongAdder callerCpu)
      throws Exception {
    long end = System.nanoTime() + nanos;
    LongAdder calls = new LongAdder();
    AtomicReference<Exception> failed = new AtomicReference<>();
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Client c = clients.get(t % clients.size());
      int me = t;
      running.add(
          Thread.ofPlatform()
              .name(CALLER + t)
              .start(() -> {
                long i = 0;
                try {
                  while (System.nanoTime() < end && failed.get() == null) {
                    c.echo("hello " + me + " " + i++);
                    calls.increment();
                  }
                } catch (Exception e) {
                  failed.compareAndSet(null, e);
                } finally {
                  callerCpu.add(
                      java.lang.management.ManagementFactory.getThreadMXBean()
                          .getCurrentThreadCpuTime());
                }
              }));
    }
    for (Thread t : running) {
      t.join();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    return calls.sum();
  }

  private static void progress(String kind, String uri, int count, int rounds) throws Exception {
    try (Client c = connect(kind, uri)) {
      int warm = rounds / 2;
      for (int r = 0; r < warm; r++) {
        c.progress(count);
      }
      long cpu0 = Cpu.processNanos();
      long t0 = System.nanoTime();
      long received = 0;
      for (int r = warm; r < rounds; r++) {
        received += c.progress(count);
      }
      long wall = System.nanoTime() - t0;
      long cpu = Cpu.processNanos() - cpu0;
      System.out.println("RESULT " + received + " " + wall + " " + cpu);
    }
  }
}
