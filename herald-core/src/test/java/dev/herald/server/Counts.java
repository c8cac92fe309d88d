package dev.herald.server;

import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener;

/** Servers whose sessions each count their events, and the counts of one session. */
final class Counts {
  private Counts() {}

  /** A new {@link CountingEventListener} for every session. */
  static final EventListener.Factory PER_SESSION = role -> new CountingEventListener();

  /** The counts of a session of a server built with {@link #PER_SESSION}. */
  static CountingEventListener of(ServerSession session) {
    return (CountingEventListener) session.eventListener();
  }
}
