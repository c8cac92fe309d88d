package dev.herald.peerbench;

/** Client throughput (filled in below). */
final class ClientScenario {
  private final Bench b;

  ClientScenario(Bench b) {
    this.b = b;
  }

  void run() {
    b.report.note("client: not implemented yet");
  }
}
