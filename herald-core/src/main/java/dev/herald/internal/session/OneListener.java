package dev.herald.internal.session;

import dev.herald.session.EventListener;

/**
 * The factory behind the builders' {@code eventListener(listener)}: one listener for every
 * session, whatever its role. A class, not a lambda: the JVM's AOT cache does not keep a lambda
 * whose interface has a static initialiser ({@code EventListener.Factory} has {@code NONE}), and
 * spinning one costs a cold process milliseconds before its first answer.
 */
public final class OneListener implements EventListener.Factory {
  private final EventListener listener;

  public OneListener(EventListener listener) {
    this.listener = listener;
  }

  @Override
  public EventListener create(EventListener.Role role) {
    return listener;
  }
}
