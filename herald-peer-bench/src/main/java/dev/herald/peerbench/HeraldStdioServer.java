package dev.herald.peerbench;

/**
 * A minimal stdio server built on Herald (the fixture's {@code echo} and {@code progress} tools),
 * for the cold start: from process start to the answer to {@code initialize}. Ends when stdin
 * closes.
 */
public final class HeraldStdioServer {
  private HeraldStdioServer() {}

  public static void main(String[] args) throws Exception {
    HeraldServer.server().serveStdio();
    System.exit(0);
  }
}
