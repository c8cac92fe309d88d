package dev.herald.cli;

import dev.herald.wire.McpException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** One clear line for an error a user can cause; never a stack trace. */
final class Errors {
  private Errors() {}

  static String describe(Throwable t) {
    while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof McpException e) {
      return e.getMessage() + " (error " + e.code() + ")";
    }
    String msg = t.getMessage();
    return msg == null || msg.isBlank() ? t.getClass().getSimpleName() : msg;
  }
}
