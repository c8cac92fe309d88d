package dev.herald.session;

/**
 * Receives one call's progress, coalesced to the call's render cadence. The final value is always
 * delivered ({@link ProgressUpdate#last()}) when the call ends. Called from Herald's threads, one
 * call at a time; must not block for long.
 */
@FunctionalInterface
public interface ProgressListener {
  void onProgress(ProgressUpdate update);

  ProgressListener NONE = u -> {};
}
