package dev.herald.bench;

import dev.herald.tasks.InMemoryTaskStore;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.ProtocolVersion;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.openjdk.jol.info.GraphLayout;

/**
 * Memory per idle task in {@link InMemoryTaskStore} (docs/benchmarks.md, "Tasks"): N tasks in
 * {@code working} (the state a long-running tool spends its life in), each as the server's task
 * runtime creates it: a 128-bit random id as 22 characters of URL-safe base64, its own {@link
 * TaskOwner} record naming one of K sessions (whose id strings the sessions own), its own creation
 * {@link Instant}, the server's shared TTL and poll interval {@link Duration}s, no status message,
 * no input requests.
 *
 * <p>Two measures, both printed:
 *
 * <ul>
 *   <li><b>Reachable from the store</b> (the headline): JOL's {@link GraphLayout} of the store
 *       with N tasks minus that of the empty store, divided by N. It counts every object reachable
 *       from the store once (the hash table, its nodes, the records, ids, owners, instants), with
 *       this JVM's real layout (compressed pointers, alignment), and nothing else; objects shared
 *       with the rest of the server (the owners' session id strings, the TTL) are counted once for
 *       all tasks, as they are paid once. Deterministic.
 *   <li><b>Heap growth</b>: used heap after {@code System.gc()} (median of three) with the N
 *       tasks minus before, divided by N ({@link java.lang.management.MemoryMXBean}). What the
 *       JVM really holds, so it agrees with the first within the noise of a collection (the hash
 *       table's power-of-two growth and G1's region accounting).
 * </ul>
 *
 * Also printed: JOL's footprint table per class, divided by N, so the figure can be read back to
 * its parts. Not counted: what the server's task runtime keeps per running task on its node
 * (handler thread, cancellation token), which is not the store's.
 *
 * <p>Options: {@code --tasks N} (100000), {@code --owners K} (1000; 0 for the 2026-07-28 era
 * without a principal, where every task's owner is the shared {@link TaskOwner#anyone()}).
 */
public final class TaskMemoryHarness {
  private TaskMemoryHarness() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    int n = Integer.parseInt(o.getOrDefault("tasks", "100000"));
    int owners = Integer.parseInt(o.getOrDefault("owners", "1000"));
    PrintStream out = System.out;

    String[] sessions = new String[owners];
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < owners; i++) {
      sessions[i] = id(random);
    }
    Duration ttl = Duration.ofHours(1);
    Duration poll = Duration.ofSeconds(1);
    Instant t0 = Instant.parse("2026-07-28T10:00:00Z");

    fill(new InMemoryTaskStore(n, n), 10_000, sessions, random, t0, ttl, poll).close(); // warm-up

    InMemoryTaskStore store = new InMemoryTaskStore(n, n);
    long emptyGraph = GraphLayout.parseInstance(store).totalSize();
    long heapBefore = usedHeapAfterGc();
    fill(store, n, sessions, random, t0, ttl, poll);
    long heapAfter = usedHeapAfterGc();
    GraphLayout full = GraphLayout.parseInstance(store);
    long fullGraph = full.totalSize();
    if (store.size() != n) {
      throw new IllegalStateException("the store holds " + store.size() + " tasks, not " + n);
    }

    out.printf(
        Locale.ROOT,
        "tasks: %,d idle (working) tasks of %s in InMemoryTaskStore, %s%n",
        n,
        owners == 0
            ? "TaskOwner.anyone()"
            : String.format(Locale.ROOT, "%,d session owners", owners),
        Runtime.version());
    out.printf(Locale.ROOT, "%nper class, reachable from the store, per task:%n");
    out.printf(Locale.ROOT, "  %10s %10s  %s%n", "objects", "bytes", "class");
    full.getClasses().stream()
        .map(c -> Map.entry(c, full.getClassSizes().count(c)))
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> {
          double objects = (double) full.getClassCounts().count(e.getKey()) / n;
          double bytes = (double) e.getValue() / n;
          if (bytes >= 0.5) {
            out.printf(Locale.ROOT, "  %10.2f %10.1f  %s%n", objects, bytes, e.getKey().getName());
          }
        });
    out.printf(
        Locale.ROOT,
        "%nmemory per idle task, reachable from the store (JOL): %.0f bytes%n",
        (double) (fullGraph - emptyGraph) / n);
    out.printf(
        Locale.ROOT,
        "memory per idle task, heap growth after GC (MemoryMXBean): %.0f bytes%n",
        (double) (heapAfter - heapBefore) / n);
    store.close();
  }

  private static InMemoryTaskStore fill(
      InMemoryTaskStore store,
      int n,
      String[] sessions,
      SplittableRandom random,
      Instant t0,
      Duration ttl,
      Duration poll) {
    for (int i = 0; i < n; i++) {
      store.create(
          StoredTask.create(
              id(random),
              sessions.length == 0
                  ? TaskOwner.anyone()
                  : TaskOwner.session(sessions[i % sessions.length]),
              "tools/call",
              ProtocolVersion.Era.LEGACY,
              t0.plusNanos(i * 1_000L),
              ttl,
              poll));
    }
    return store;
  }

  /** 128 random bits as 22 characters of URL-safe base64, as the server's TaskIds makes them. */
  private static String id(SplittableRandom random) {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
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

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "usage: TaskMemoryHarness [--tasks 100000] [--owners 1000 | 0 for anyone]");
      }
      o.put(args[i].substring(2), args[++i]);
    }
    return o;
  }
}
