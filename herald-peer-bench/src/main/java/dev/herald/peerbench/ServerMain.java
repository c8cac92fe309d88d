package dev.herald.peerbench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A child JVM holding one server under test on 127.0.0.1 (a free port, printed as {@code PORT n}
 * on stdout), steered by one line on stdin per command and answering one line on stdout:
 * {@code clock} (its {@code System.nanoTime()}), {@code cpu} (process CPU nanoseconds, {@link Cpu}), {@code
 * heap} (used heap after {@code System.gc()}, median of three), {@code gc} (collections, their
 * milliseconds and the JIT's milliseconds so far, {@link Pauses}), {@code trigger k} (a list
 * change: a tool {@code tool-k} is added; answered with the nanoTime before the change, how long
 * the call took, and the calling thread's CPU nanoseconds, bytes allocated and user-mode CPU nanoseconds during it), {@code
 * quit}. End of stdin or the time limit ends the process. The channel adds no
 * connection or thread to the server being measured.
 *
 * <p>Usage: {@code ServerMain <herald|sdk|ceiling> <maxSessions> <timeLimitSeconds>}. Each kind
 * runs on its own class path (see {@link Classpaths}): the SDK's server never sees a Herald class
 * and Herald never sees the SDK.
 */
public final class ServerMain {
  /** This thread's CPU time and allocation around a trigger: the fan-out's own loop, for Herald and the ceiling. */
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private ServerMain() {}

  /** A server under test. */
  interface Target extends AutoCloseable {
    int port();

    /** Makes the tool list change ({@code notifications/tools/list_changed} to every session). */
    void trigger(int k);

    @Override
    void close();
  }

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    int maxSessions = Integer.parseInt(args[1]);
    long limitSeconds = Long.parseLong(args[2]);
    TimeLimit.start(limitSeconds, "server child " + kind);
    Target t =
        switch (kind) {
          case "herald" -> new HeraldServer(maxSessions);
          case "sdk" -> new SdkServer();
          case "ceiling" -> new CeilingServer();
          default -> throw new IllegalArgumentException("unknown server " + kind);
        };
    PrintStream out = System.out;
    out.println("PORT " + t.port());
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] f = line.trim().split(" ", -1);
      switch (f[0]) {
        case "clock" -> out.println("CLOCK " + System.nanoTime());
        case "heap" -> out.println("HEAP " + usedHeapAfterGc());
        case "cpu" -> out.println("CPU " + Cpu.processNanos());
        case "gc" -> out.println("GC " + Pauses.read());
        case "trigger" -> {
          int k = Integer.parseInt(f[1]);
          long cpu0 = THREADS.getCurrentThreadCpuTime();
          long user0 = THREADS.getCurrentThreadUserTime();
          long alloc0 = THREADS.getCurrentThreadAllocatedBytes();
          long t0 = System.nanoTime();
          t.trigger(k);
          long took = System.nanoTime() - t0;
          long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
          long alloc = THREADS.getCurrentThreadAllocatedBytes() - alloc0;
          long user = THREADS.getCurrentThreadUserTime() - user0;
          out.println("TRIGGERED " + t0 + " " + took + " " + cpu + " " + alloc + " " + user);
        }
        case "quit" -> {
          t.close();
          out.println("BYE");
          out.flush();
          System.exit(0);
        }
        default -> out.println("ERROR unknown command " + line);
      }
      out.flush();
    }
    t.close();
    System.exit(0);
  }

  static long usedHeapAfterGc() throws InterruptedException {
    long[] v = new long[3];
    for (int i = 0; i < v.length; i++) {
      System.gc();
      Thread.sleep(200);
      v[i] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
    Arrays.sort(v);
    return v[1];
  }
}
