package dev.herald.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One keep-alive HTTP/1.1 connection of an {@link Http1Client}: a blocking socket (a {@link
 * SocketChannel}'s socket, under an {@link SSLSocket} for {@code https}) with a read buffer that
 * the exchange parses in place.
 *
 * <p>Threading: used by one exchange at a time (the pool hands it out to one), whose reads may
 * move from the sending thread to a virtual thread or a body reader, one after the other. {@link
 * #close} may come from any thread at any time and unblocks a read in progress.
 */
final class Http1Connection {
  /** The most a buffered head (status line and fields) may take. */
  static final int MAX_HEAD = 64 * 1024;

  private static final int INITIAL_BUFFER = 16 * 1024;

  final Http1Client.Origin origin;
  private final SocketChannel channel;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** The read buffer: unread bytes are {@code buf[pos, lim)}. Guarded by the exchange owning it. */
  byte[] buf = new byte[INITIAL_BUFFER];

  int pos;
  int lim;

  /** The read timeout the socket has now, to set it only when it changes. */
  private int soTimeout;

  /** When the connection went back to the pool ({@link System#nanoTime}). */
  long idleSince;

  /** Whether the connection served an exchange before the current one. */
  boolean reused;

  /** Bytes read since the current exchange took the connection. */
  long readSinceTaken;

  private Http1Connection(Http1Client.Origin origin, SocketChannel channel, Socket socket)
      throws IOException {
    this.origin = origin;
    this.channel = channel;
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Connects to {@code origin} within {@code connectTimeoutMillis} (0: no limit). */
  static Http1Connection open(
      Http1Client.Origin origin,
      int connectTimeoutMillis,
      SSLContext tls,
      SSLParameters tlsParameters)
      throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      Socket plain = channel.socket();
      plain.setTcpNoDelay(true);
      try {
        plain.connect(new InetSocketAddress(origin.host(), origin.port()), connectTimeoutMillis);
      } catch (SocketTimeoutException e) {
        HttpConnectTimeoutException t =
            new HttpConnectTimeoutException("connect to " + origin + " timed out");
        t.initCause(e);
        throw t;
      }
      if (!origin.tls()) {
        return new Http1Connection(origin, channel, plain);
      }
      SSLSocket ssl =
          (SSLSocket)
              tls.getSocketFactory().createSocket(plain, origin.host(), origin.port(), true);
      SSLParameters p = tlsParameters;
      if (p.getEndpointIdentificationAlgorithm() == null) {
        p.setEndpointIdentificationAlgorithm("HTTPS"); // check the server's name, as the JDK does
      }
      ssl.setSSLParameters(p);
      ssl.setSoTimeout(connectTimeoutMillis);
      ssl.startHandshake();
      Http1Connection c = new Http1Connection(origin, channel, ssl);
      c.soTimeout = connectTimeoutMillis;
      return c;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Writes {@code bytes} whole, in one write when the socket takes it. */
  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * Reads more bytes into the buffer, waiting at most {@code timeoutMillis} (0: no limit).
   *
   * @return the number read, or -1 at the end of the stream
   * @throws SocketTimeoutException when nothing came in time; the connection stays usable
   */
  int fill(int timeoutMillis) throws IOException {
    if (pos == lim) {
      pos = 0;
      lim = 0;
    } else if (lim == buf.length) {
      if (pos > 0) {
        System.arraycopy(buf, pos, buf, 0, lim - pos);
        lim -= pos;
        pos = 0;
      } else {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
    }
    if (timeoutMillis != soTimeout) {
      socket.setSoTimeout(timeoutMillis);
      soTimeout = timeoutMillis;
    }
    int n = in.read(buf, lim, buf.length - lim);
    if (n > 0) {
      lim += n;
      readSinceTaken += n;
    }
    return n;
  }

  /** The number of buffered, unread bytes. */
  int buffered() {
    return lim - pos;
  }

  /**
   * Whether the server closed (or wrote to) this idle connection: one non-blocking read. Any
   * byte, or the end of the stream, makes it unusable (for TLS that may be an alert or a late
   * ticket; either way a fresh connection is the safe choice).
   */
  boolean stale() {
    if (lim != pos) {
      return true;
    }
    try {
      channel.configureBlocking(false);
      try {
        return channel.read(ByteBuffer.allocate(1)) != 0;
      } finally {
        channel.configureBlocking(true);
      }
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  /** Closes the socket, once; a read blocked on it fails at once. */
  void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  @Override
  public String toString() {
    return "connection to " + origin;
  }
}
