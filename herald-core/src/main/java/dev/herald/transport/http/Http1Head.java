package dev.herald.transport.http;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The head of an HTTP/1.1 response (RFC 9112 §4, §5): the status code, the fields, and how the
 * body is framed (§6.3).
 *
 * @param status the status code
 * @param minorVersion 1 for HTTP/1.1, 0 for HTTP/1.0
 * @param headers the fields, names case-insensitive
 * @param framing how the body ends
 * @param length the body's length for {@link Framing#LENGTH}, else -1
 * @param keepAlive whether the connection may serve another exchange after this body
 */
record Http1Head(
    int status,
    int minorVersion,
    HttpHeaders headers,
    Framing framing,
    long length,
    boolean keepAlive) {

  /** How a response body ends (RFC 9112 §6.3). */
  enum Framing {
    /** No body: a {@code HEAD} answer, 1xx, 204, 304, or a zero {@code Content-Length}. */
    NONE,
    /** {@code Content-Length} bytes. */
    LENGTH,
    /** The chunked transfer coding, trailers skipped. */
    CHUNKED,
    /** Everything until the server closes the connection. */
    TO_CLOSE
  }

  /**
   * Parses the head in {@code buf[from, to)} (the terminating empty line included).
   *
   * @throws IOException naming {@code server} when the head is malformed
   */
  static Http1Head parse(byte[] buf, int from, int to, boolean headRequest, String server)
      throws IOException {
    int lineEnd = lineEnd(buf, from, to);
    String statusLine = line(buf, from, lineEnd);
    // HTTP-version SP 3DIGIT SP [reason]
    if (statusLine.length() < 12
        || !statusLine.startsWith("HTTP/1.")
        || statusLine.charAt(8) != ' '
        || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
      throw malformed(server, "status line", statusLine);
    }
    char minor = statusLine.charAt(7);
    int status = 0;
    for (int i = 9; i < 12; i++) {
      char c = statusLine.charAt(i);
      if (c < '0' || c > '9') {
        throw malformed(server, "status line", statusLine);
      }
      status = status * 10 + (c - '0');
    }
    if ((minor != '0' && minor != '1') || status < 100) {
      throw malformed(server, "status line", statusLine);
    }
    TreeMap<String, List<String>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int at = next(buf, lineEnd, to);
    while (true) {
      int end = lineEnd(buf, at, to);
      if (end == at) {
        break; // the empty line
      }
      String field = line(buf, at, end);
      int colon = field.indexOf(':');
      if (colon <= 0 || !isToken(field, colon)) {
        throw malformed(server, "header field", field);
      }
      fields
          .computeIfAbsent(field.substring(0, colon), n -> new ArrayList<>(1))
          .add(field.substring(colon + 1).strip());
      at = next(buf, end, to);
    }
    HttpHeaders headers = HttpHeaders.of(fields, (n, v) -> true);
    boolean keepAlive =
        minor == '1'
            ? !hasToken(headers, "Connection", "close")
            : hasToken(headers, "Connection", "keep-alive");
    if (headRequest || status < 200 || status == 204 || status == 304) {
      return new Http1Head(status, minor - '0', headers, Framing.NONE, 0, keepAlive);
    }
    List<String> te = headers.allValues("Transfer-Encoding");
    if (!te.isEmpty()) {
      String codings = String.join(",", te).toLowerCase(Locale.ROOT);
      String last = codings.substring(codings.lastIndexOf(',') + 1).strip();
      return last.equals("chunked")
          ? new Http1Head(status, minor - '0', headers, Framing.CHUNKED, -1, keepAlive)
          : new Http1Head(status, minor - '0', headers, Framing.TO_CLOSE, -1, false);
    }
    List<String> cl = headers.allValues("Content-Length");
    if (!cl.isEmpty()) {
      long length = -1;
      for (String v : cl) {
        for (String part : v.split(",", -1)) {
          long n = parseLength(part.strip(), server);
          if (length != -1 && n != length) {
            throw malformed(server, "Content-Length", String.join(", ", cl));
          }
          length = n;
        }
      }
      return new Http1Head(
          status,
          minor - '0',
          headers,
          length == 0 ? Framing.NONE : Framing.LENGTH,
          length,
          keepAlive);
    }
    return new Http1Head(status, minor - '0', headers, Framing.TO_CLOSE, -1, false);
  }

  /**
   * The index just past the head's terminating empty line in {@code buf[from, to)}, or -1 when
   * it is not there yet. Lines end with CRLF or a bare LF (RFC 9112 §2.2).
   */
  static int end(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == '\n' && i > from) {
        if (i + 1 < to && buf[i + 1] == '\n') {
          return i + 2;
        }
        if (i + 2 < to && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
          return i + 3;
        }
      }
    }
    return -1;
  }

  /** A chunk-size line's size, extensions ignored (RFC 9112 §7.1). */
  static long chunkSize(String line, String server) throws IOException {
    int semi = line.indexOf(';');
    String hex = (semi < 0 ? line : line.substring(0, semi)).strip();
    if (hex.isEmpty() || hex.length() > 15) {
      throw malformed(server, "chunk size", line);
    }
    long size = 0;
    for (int i = 0; i < hex.length(); i++) {
      int d = Character.digit(hex.charAt(i), 16);
      if (d < 0) {
        throw malformed(server, "chunk size", line);
      }
      size = size * 16 + d;
    }
    return size;
  }

  static IOException malformed(String server, String what, String text) {
    String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
    return new IOException(
        "malformed HTTP response from " + server + ": bad " + what + " '" + printable(shown) + "'");
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return b.toString();
  }

  private static long parseLength(String v, String server) throws IOException {
    if (v.isEmpty() || v.length() > 18) {
      throw malformed(server, "Content-Length", v);
    }
    long n = 0;
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < '0' || c > '9') {
        throw malformed(server, "Content-Length", v);
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  private static boolean hasToken(HttpHeaders headers, String name, String token) {
    for (String v : headers.allValues(name)) {
      for (String t : v.split(",", -1)) {
        if (t.strip().equalsIgnoreCase(token)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code s[0, end)} is an RFC 9110 token (a field name: no spaces, no separators). */
  private static boolean isToken(String s, int end) {
    for (int i = 0; i < end; i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The end of the line starting at {@code from}: the index of its CR (before LF) or LF. */
  private static int lineEnd(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == '\n') {
        return i > from && buf[i - 1] == '\r' ? i - 1 : i;
      }
    }
    return to;
  }

  /** The start of the line after the one ending at {@code end}. */
  private static int next(byte[] buf, int end, int to) {
    return end < to && buf[end] == '\r' ? end + 2 : end + 1;
  }

  private static String line(byte[] buf, int from, int end) {
    return new String(buf, from, end - from, StandardCharsets.ISO_8859_1);
  }
}
