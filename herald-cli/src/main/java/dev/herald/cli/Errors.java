package dev.herald.cli;

import dev.herald.session.TimeoutException;
import dev.herald.transport.TransportException;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * One clear line for an error a user can cause, and its exit code; never a stack trace.
 * Exit codes: 1 for a failure, 2 for a usage error (picocli's), 124 for a timeout (like
 * {@code timeout(1)}), 130 for Ctrl-C.
 */
final class Errors {
  private Errors() {}

  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int TIMED_OUT = 124;
  static final int INTERRUPTED = 130;

  static Throwable unwrap(Throwable t) {
    while ((t instanceof ExecutionException || t instanceof CompletionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  static String describe(Throwable t) {
    t = unwrap(t);
    if (t instanceof McpException e) {
      String what =
          e.code() == ErrorCodes.INVALID_PARAMS
              ? "the server refused the request: "
              : "the server answered with an error: ";
      return what + e.getMessage() + " (error " + e.code() + ")";
    }
    if (t instanceof TimeoutException e) {
      return "timed out: " + e.getMessage();
    }
    if (t instanceof TransportException e) {
      Throwable cause = e.getCause();
      String msg = e.getMessage();
      if (cause instanceof IOException io
          && io.getMessage() != null
          && msg != null
          && !msg.contains(io.getMessage())) {
        msg = msg + ": " + io.getMessage();
      }
      return "connection to the server failed: " + (msg == null ? "" : msg.strip());
    }
    String msg = t.getMessage();
    return msg == null || msg.isBlank() ? t.getClass().getSimpleName() : msg;
  }

  static int exitCode(Throwable t) {
    return unwrap(t) instanceof TimeoutException ? TIMED_OUT : FAILED;
  }
}
