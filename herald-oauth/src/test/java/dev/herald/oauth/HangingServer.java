package dev.herald.oauth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a hung endpoint. */
final class HangingServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> held = new CopyOnWriteArrayList<>();

  HangingServer() {
    try {
      socket = new ServerSocket();
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread.ofVirtual()
        .start(() -> {
          while (!socket.isClosed()) {
            try {
              held.add(socket.accept());
            } catch (IOException e) {
              return;
            }
          }
        });
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
  }

  int accepted() {
    return held.size();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : held) {
      s.close();
    }
  }
}
