package dev.herald.peerbench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The driver's options: {@code --name value} pairs, each with a default (see {@link PeerBench}). */
final class Options {
  static final List<String> SCENARIOS =
      List.of("progress", "calls", "fanout", "heap", "client", "coldstart");

  private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

  static {
    DEFAULTS.put("only", String.join(",", SCENARIOS));
    DEFAULTS.put("targets", "herald,sdk,ceiling");
    DEFAULTS.put("child-heap", "512m");
    DEFAULTS.put("timeout-s", "900");
    DEFAULTS.put("progress-count", "10000");
    DEFAULTS.put("progress-warmup", "5");
    DEFAULTS.put("progress-warmup-s", "10");
    DEFAULTS.put("progress-rounds", "30");
    DEFAULTS.put("call-sessions", "16");
    DEFAULTS.put("calls-warmup-s", "8");
    DEFAULTS.put("calls-s", "8");
    DEFAULTS.put("stateless", "true");
    DEFAULTS.put("sessions", "1000");
    DEFAULTS.put("get-connection", "fresh");
    DEFAULTS.put(
        "fanout-warmup", "20"); // the JIT still compiles the write path until about the 15th
    DEFAULTS.put("fanout-rounds", "15");
    DEFAULTS.put("client-threads", "16");
    DEFAULTS.put("client-warmup-s", "30");
    DEFAULTS.put("client-s", "10");
    DEFAULTS.put("client-progress-count", "10000");
    DEFAULTS.put("client-progress-rounds", "10");
    DEFAULTS.put("spawns", "5");
    DEFAULTS.put("herald-jar", "");
    DEFAULTS.put("json", "");
    DEFAULTS.put("docs", "");
  }

  private final Map<String, String> values;

  private Options(Map<String, String> values) {
    this.values = values;
  }

  static Options parse(String[] args) {
    Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help")) {
        throw new IllegalArgumentException(usage());
      }
      if (!a.startsWith("--") || !DEFAULTS.containsKey(a.substring(2)) || i + 1 >= args.length) {
        throw new IllegalArgumentException("unknown or incomplete option " + a + "\n" + usage());
      }
      v.put(a.substring(2), args[++i]);
    }
    for (String s : v.get("only").split(",", -1)) {
      if (!SCENARIOS.contains(s.trim())) {
        throw new IllegalArgumentException("unknown scenario " + s + " (one of " + SCENARIOS + ")");
      }
    }
    return new Options(v);
  }

  static String usage() {
    StringBuilder b = new StringBuilder("options (default):");
    DEFAULTS.forEach(
        (k, d) -> b.append("\n  --").append(k).append(' ').append(d.isEmpty() ? "-" : d));
    return b.toString();
  }

  String get(String name) {
    return values.get(name);
  }

  int integer(String name) {
    return Integer.parseInt(values.get(name));
  }

  boolean wants(String scenario) {
    return Set.of(values.get("only").split(",", -1)).contains(scenario);
  }

  boolean target(String t) {
    return Set.of(values.get("targets").split(",", -1)).contains(t);
  }

  Map<String, String> all() {
    return Map.copyOf(values);
  }
}
