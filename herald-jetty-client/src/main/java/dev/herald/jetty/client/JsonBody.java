package dev.herald.jetty.client;

import java.nio.ByteBuffer;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.io.Content;
import org.jspecify.annotations.Nullable;

/**
 * One encoded JSON-RPC message as a request body ({@code application/json}), read in one chunk.
 *
 * <p>Design note. Jetty's {@code BytesRequestContent} builds its buffers and length with streams
 * and takes a lock per read, a measurable share of a small call's client CPU; a message is one
 * array known in full, so this source hands it over whole. It can be read again after {@link
 * #rewind()} (Jetty rewinds a body to send it again, after an authentication challenge for one).
 * Jetty reads it on one thread at a time.
 */
final class JsonBody implements Request.Content {
  private final byte[] bytes;
  private boolean read; // guarded by Jetty's one reader at a time
  private @Nullable Throwable failure;

  JsonBody(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public String getContentType() {
    return JettyStreamableHttpClientTransport.JSON;
  }

  @Override
  public long getLength() {
    return bytes.length;
  }

  @Override
  public Content.@Nullable Chunk read() {
    Throwable f = failure;
    if (f != null) {
      return Content.Chunk.from(f, true);
    }
    if (read) {
      return Content.Chunk.EOF;
    }
    read = true;
    return Content.Chunk.from(ByteBuffer.wrap(bytes), true);
  }

  @Override
  public void demand(Runnable demandCallback) {
    demandCallback.run(); // the whole body is available at once
  }

  @Override
  public void fail(Throwable failure) {
    this.failure = failure;
  }

  @Override
  public boolean rewind() {
    read = false;
    return true;
  }
}
