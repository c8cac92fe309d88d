package dev.herald.redis;

import dev.herald.tasks.StoredTask;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * The task changes of every node, heard on the cluster's change channel and handed to this store's
 * listeners.
 *
 * <p>Design note. Each created or changed task is published by the script that wrote it, so the
 * channel carries every task's versions in commit order; Lettuce hands a connection's messages
 * over in order on one event-loop thread, which only queues them. One delivery thread calls the
 * listeners, in that order, never on Lettuce's thread (a listener may call the store). A version
 * not newer than the last one delivered for its task is dropped (the last versions of the most
 * recent 65,536 tasks are remembered). The subscription is confirmed before the constructor
 * returns, so a change made after that is heard; Lettuce subscribes again after a reconnect, and
 * what was published while disconnected is not heard.
 */
final class TaskChanges implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TaskChanges.class.getName());
  private static final int REMEMBERED = 65_536;

  private final StatefulRedisPubSubConnection<String, byte[]> connection;
  private final List<Registration> listeners = new CopyOnWriteArrayList<>();
  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final Thread delivery;

  /** The last version delivered per task; only the delivery thread touches it. */
  private final Map<String, Long> delivered =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
          return size() > REMEMBERED;
        }
      };

  private volatile boolean closed;

  TaskChanges(Redis redis, String channel) {
    this.connection = redis.pubSub();
    connection.addListener(
        new RedisPubSubAdapter<String, byte[]>() {
          @Override
          public void message(String from, byte[] message) {
            if (from.equals(channel)) {
              queue.offer(message);
            }
          }
        });
    try {
      redis.call(
          "subscribe to task changes",
          () -> {
            connection.sync().subscribe(channel);
            return null;
          });
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    this.delivery = Thread.ofPlatform().daemon().name("herald-redis-task-changes").start(this::run);
  }

  AutoCloseable listen(Consumer<StoredTask> listener) {
    Registration r = new Registration(listener);
    listeners.add(r);
    return () -> listeners.remove(r);
  }

  private void run() {
    while (!closed) {
      byte[] m;
      try {
        m = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      StoredTask t;
      try {
        t = TaskCodec.decode(m);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "an unreadable task change was dropped", e);
        continue;
      }
      Long last = delivered.get(t.taskId());
      if (last != null && t.version() <= last) {
        continue; // stale or repeated
      }
      delivered.put(t.taskId(), t.version());
      for (Registration r : listeners) {
        if (closed) {
          return;
        }
        r.call(t);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    listeners.clear();
    delivery.interrupt();
    try {
      connection.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "closing the task change subscription failed: {0}", e.getMessage());
    }
  }

  /** One listen call: its own identity, so closing it removes exactly it. */
  private static final class Registration {
    private final Consumer<StoredTask> listener;

    Registration(Consumer<StoredTask> listener) {
      this.listener = listener;
    }

    void call(StoredTask t) {
      try {
        listener.accept(t);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "task listener failed", e);
      }
    }
  }
}
