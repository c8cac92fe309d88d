package dev.herald.peerbench;

/** Cold start (filled in below). */
final class ColdStartScenario {
  private final Bench b;

  ColdStartScenario(Bench b) {
    this.b = b;
  }

  void run() {
    b.report.note("coldstart: not implemented yet");
  }
}
