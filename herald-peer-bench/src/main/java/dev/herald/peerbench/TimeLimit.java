package dev.herald.peerbench;

/** Ends this JVM when its time limit has passed, whatever it is doing: nothing here runs unbounded. */
final class TimeLimit {
  private TimeLimit() {}

  static void start(long seconds, String who) {
    Thread.ofPlatform()
        .daemon()
        .name("time-limit")
        .start(() -> {
          try {
            Thread.sleep(seconds * 1000 + 2_000);
            System.err.println(who + ": time limit of " + seconds + " s reached, halting");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }
}
