package dev.herald.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 over a socket, for what the JDK client will not send (a foreign Host). */
final class Raw {
  private Raw() {}

  /** Sends one request with {@code Connection: close}; returns the status code and the body. */
  static String[] exchange(int port, String head, String body) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      String req = head + "Content-Length: " + b.length + "\r\nConnection: close\r\n\r\n";
      s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(b);
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      String status = text.substring(9, 12);
      int bodyAt = text.indexOf("\r\n\r\n");
      return new String[] {status, bodyAt < 0 ? "" : text.substring(bodyAt + 4)};
    }
  }
}
