package dev.herald.http.internal;

import org.jspecify.annotations.Nullable;

/**
 * An {@link dev.herald.http.EventStore} that lets a stream keep a handle to where its events are
 * kept, so that its next append goes there without looking the session and the stream up again:
 * a handler's progress appends to one stream many times, and a server-wide fan-out appends one
 * event to each of many streams in turn, each of which would otherwise pay two map lookups on cold
 * memory.
 *
 * <p>The guarantees are those of {@code append}. A handle is opaque, belongs to the one stream it
 * was returned for, and is only ever passed back by that stream's writer (under the stream's lock).
 * A handle whose stream or session was removed since is not used: the append then finds (or makes)
 * the stream's place as a plain {@code append} would.
 */
public interface StreamAppends {
  /**
   * As {@code EventStore.append}.
   *
   * @param handle what the previous call for this stream returned, or null for its first event
   * @return the handle to pass with the stream's next event
   */
  Object append(
      @Nullable Object handle, String sessionId, String streamId, long seq, byte[] message);
}
