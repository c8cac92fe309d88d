package dev.herald.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * A server on a raw 127.0.0.1 socket, for the wire edge cases of {@link Http1Client}: each
 * accepted connection is handed to the script on a virtual thread of its own, and the server
 * counts the connections it accepted and those the client closed.
 */
final class RawServer implements AutoCloseable {
  /** What the server does with one connection. */
  @FunctionalInterface
  interface Script {
    void serve(Conn conn) throws Exception;
  }

  private final ServerSocket socket;
  private final String scheme;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  final AtomicInteger connections = new AtomicInteger();
  final AtomicInteger closedByClient = new AtomicInteger();

  RawServer(Script script) throws IOException {
    this(script, null);
  }

  /** A server speaking TLS with {@code tls}'s key when it is not null. */
  RawServer(Script script, @Nullable SSLContext tls) throws IOException {
    this.scheme = tls == null ? "http" : "https";
    socket =
        tls == null
            ? new ServerSocket(0, 50, InetAddress.getLoopbackAddress())
            : tls.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(() -> {
          while (!socket.isClosed()) {
            Socket s;
            try {
              s = socket.accept();
            } catch (IOException e) {
              return;
            }
            accepted.add(s);
            connections.incrementAndGet();
            Thread.ofVirtual()
                .start(() -> {
                  Conn c = new Conn(s);
                  try {
                    script.serve(c);
                  } catch (Exception ignored) {
                    // the client went away
                  }
                });
          }
        });
  }

  URI uri(String path) {
    return URI.create(scheme + "://127.0.0.1:" + socket.getLocalPort() + path);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : accepted) {
      s.close();
    }
  }

  /** One accepted connection. */
  final class Conn {
    final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Conn(Socket socket) {
      this.socket = socket;
      try {
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    /** The next request's head and body (by Content-Length), or null when the client closed. */
    String request() throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      while (matched < 4) {
        int b = in.read();
        if (b < 0) {
          closedByClient.incrementAndGet();
          return null;
        }
        head.write(b);
        matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      String h = head.toString(StandardCharsets.ISO_8859_1);
      int length = 0;
      for (String line : h.split("\r\n")) {
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).strip());
        }
      }
      byte[] body = in.readNBytes(length);
      return h + new String(body, StandardCharsets.UTF_8);
    }

    /** Waits for the client to close the connection (or for more bytes: then returns false). */
    boolean awaitClose() throws IOException {
      try {
        if (in.read() < 0) {
          closedByClient.incrementAndGet();
          return true;
        }
        return false;
      } catch (IOException e) {
        closedByClient.incrementAndGet();
        return true;
      }
    }

    void write(String s) throws IOException {
      out.write(s.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }

    void close() throws IOException {
      socket.close();
    }
  }
}
