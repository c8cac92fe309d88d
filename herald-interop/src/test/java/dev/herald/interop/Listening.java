package dev.herald.interop;

import dev.herald.client.McpClient;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.SubscriptionFilter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/**
 * {@code McpClient.listen(SubscriptionFilter, SubscriptionListener)} (the client's {@code
 * subscriptions/listen}, MCP 2026-07-28 basic/patterns/subscriptions), reached reflectively so
 * that this module's tests compile before and after the client's 2026-07-28 API is merged. Once it
 * is, replace this class with direct calls. Without the method, {@link #open} fails the test with
 * a message saying so.
 */
final class Listening implements AutoCloseable {
  private final AutoCloseable subscription;

  private Listening(AutoCloseable subscription) {
    this.subscription = subscription;
  }

  static Listening open(
      McpClient client,
      SubscriptionFilter filter,
      Consumer<McpClient.Area> listChanged,
      Consumer<ResourceUpdatedParams> updated)
      throws Exception {
    Class<?> listenerType;
    Method listen;
    try {
      listenerType = Class.forName("dev.herald.client.SubscriptionListener");
      listen = McpClient.class.getMethod("listen", SubscriptionFilter.class, listenerType);
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      throw new AssertionError(
          "McpClient.listen(SubscriptionFilter, SubscriptionListener) is not in this build", e);
    }
    Object listener =
        Proxy.newProxyInstance(
            Listening.class.getClassLoader(),
            new Class<?>[] {listenerType},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "listChanged" -> listChanged.accept((McpClient.Area) args[0]);
                case "resourceUpdated" -> updated.accept((ResourceUpdatedParams) args[0]);
                case "hashCode" -> {
                  return System.identityHashCode(proxy);
                }
                case "equals" -> {
                  return proxy == args[0];
                }
                case "toString" -> {
                  return "interop listener";
                }
                default -> {
                  // acknowledged, ended: nothing to record
                }
              }
              return null;
            });
    try {
      return new Listening((AutoCloseable) listen.invoke(client, filter, listener));
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  @Override
  public void close() throws Exception {
    subscription.close();
  }
}
