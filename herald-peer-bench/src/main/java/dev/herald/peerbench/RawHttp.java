package dev.herald.peerbench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The load driver's HTTP/1.1 client: one keep-alive connection on a plain socket to 127.0.0.1,
 * requests written by hand, responses read with {@code Content-Length} or chunked framing. No SDK
 * and no HTTP library, so the driver costs the same against every server and little CPU.
 *
 * <p>Not thread-safe: one thread drives a connection.
 */
final class RawHttp implements AutoCloseable {
  /** A response's status and headers (names lower-cased). */
  record Head(int status, Map<String, String> headers) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    boolean sse() {
      String t = header("content-type");
      return t != null && t.startsWith("text/event-stream");
    }
  }

  /** A whole response. */
  static final class Response {
    private final Head head;
    private final byte[] body;

    Response(Head head, byte[] body) {
      this.head = head;
      this.body = body;
    }

    Head head() {
      return head;
    }

    byte[] body() {
      return body;
    }

    int length() {
      return body.length;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String host;

  RawHttp(int port) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    socket.setSoTimeout(120_000);
    in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    out = new BufferedOutputStream(socket.getOutputStream(), 8 * 1024);
    host = "127.0.0.1:" + port;
  }

  /** Lets reads wait without bound (for a standing stream, idle until the server sends). */
  void noReadTimeout() throws IOException {
    socket.setSoTimeout(0);
  }

  /** Writes one request; {@code headers} are {@code name, value} pairs. */
  void send(String method, String path, byte[] body, String... headers) throws IOException {
    StringBuilder b = new StringBuilder(256);
    b.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      if (headers[i + 1] != null) {
        b.append("\r\n").append(headers[i]).append(": ").append(headers[i + 1]);
      }
    }
    if (body.length > 0 || method.equals("POST")) {
      b.append("\r\nContent-Length: ").append(body.length);
    }
    b.append("\r\n\r\n");
    out.write(b.toString().getBytes(StandardCharsets.UTF_8));
    out.write(body);
    out.flush();
  }

  /** Reads a status line and headers. */
  Head head() throws IOException {
    String status = line();
    while (status.isEmpty()) {
      status = line();
    }
    if (!status.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    Map<String, String> h = new HashMap<>();
    while (true) {
      String l = line();
      if (l.isEmpty()) {
        break;
      }
      int c = l.indexOf(':');
      if (c > 0) {
        h.put(l.substring(0, c).trim().toLowerCase(Locale.ROOT), l.substring(c + 1).trim());
      }
    }
    return new Head(code, h);
  }

  /** Reads a whole response (head and body). */
  Response read() throws IOException {
    Head h = head();
    ByteArrayOutputStream body = new ByteArrayOutputStream(512);
    body(h).transferTo(body);
    byte[] b = body.toByteArray();
    return new Response(h, b);
  }

  /** The body of a response whose head was read, framed as its headers say. */
  InputStream body(Head h) {
    String te = h.header("transfer-encoding");
    if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
      return new Chunked();
    }
    String cl = h.header("content-length");
    if (cl != null) {
      return new Bounded(Long.parseLong(cl));
    }
    if (h.status() == 204 || h.status() == 304 || (h.status() >= 100 && h.status() < 200)) {
      return InputStream.nullInputStream();
    }
    return in; // until the connection closes
  }

  /** A CRLF-ended line of the head, ASCII. */
  private String line() throws IOException {
    StringBuilder b = new StringBuilder(64);
    while (true) {
      int c = in.read();
      if (c == '\n') {
        break;
      }
      if (c < 0) {
        throw new EOFException("connection closed");
      }
      if (c != '\r') {
        b.append((char) c);
      }
    }
    return b.toString();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** A body with a Content-Length. */
  private final class Bounded extends InputStream {
    private long left;

    Bounded(long length) {
      this.left = length;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int c = in.read();
      if (c < 0) {
        throw new EOFException("body cut short");
      }
      left--;
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) {
        throw new EOFException("body cut short");
      }
      left -= n;
      return n;
    }
  }

  /** A chunked body; ends after the last chunk and its trailer. */
  private final class Chunked extends InputStream {
    private long left;
    private boolean done;

    private boolean next() throws IOException {
      if (done) {
        return false;
      }
      if (left == 0) {
        String size = line();
        while (size.isEmpty()) {
          size = line(); // the CRLF after the previous chunk's data
        }
        int semi = size.indexOf(';');
        left = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
        if (left == 0) {
          while (!line().isEmpty()) {
            // trailer fields
          }
          done = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      if (!next()) {
        return -1;
      }
      int c = in.read();
      if (c < 0) {
        throw new EOFException("chunk cut short");
      }
      left--;
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (!next()) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) {
        throw new EOFException("chunk cut short");
      }
      left -= n;
      return n;
    }
  }
}
