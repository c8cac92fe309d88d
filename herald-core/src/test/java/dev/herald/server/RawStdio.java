package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.McpJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A server session on a real {@link StdioTransport} whose other end is raw bytes: the test writes
 * frames byte for byte (malformed UTF-8 included) and reads the server's lines as JSON.
 */
final class RawStdio implements AutoCloseable {
  final ServerSession session;
  private final OutputStream toServer;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private RawStdio(ServerSession session, OutputStream toServer, PipedInputStream fromServer) {
    this.session = session;
    this.toServer = toServer;
    Thread.ofVirtual()
        .start(() -> {
          try (BufferedReader r =
              new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
              lines.add(line);
            }
          } catch (IOException ignored) {
            // the server's end closed
          }
        });
  }

  static RawStdio connect(McpServer server) {
    try {
      PipedInputStream serverIn = new PipedInputStream(1 << 20);
      PipedOutputStream toServer = new PipedOutputStream(serverIn);
      PipedInputStream fromServer = new PipedInputStream(1 << 20);
      PipedOutputStream serverOut = new PipedOutputStream(fromServer);
      ServerSession session =
          server.connect(StdioTransport.of(serverIn, new PipeLink.Pumped(serverOut)));
      return new RawStdio(session, toServer, fromServer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Connects and completes the handshake. */
  static RawStdio initialized(McpServer server) throws Exception {
    RawStdio raw = connect(server);
    raw.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
    assertThat(raw.next().get("result")).as("initialize result").isNotNull();
    raw.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return raw;
  }

  void send(String line) throws IOException {
    sendBytes(line.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes one frame as given, then a newline. */
  void sendBytes(byte[] frame) throws IOException {
    toServer.write(frame);
    toServer.write('\n');
    toServer.flush();
  }

  /** Writes a request whose params are the given JSON text and returns the server's answer. */
  JsonNode call(Object id, String method, String params) throws Exception {
    String idJson = id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + idJson
            + ",\"method\":\""
            + method
            + "\",\"params\":"
            + params
            + "}");
    return next();
  }

  JsonNode next() throws InterruptedException {
    String line = lines.poll(10, TimeUnit.SECONDS);
    assertThat(line).as("a line from the server").isNotNull();
    return McpJson.mapper().readTree(line);
  }

  @Override
  public void close() throws IOException {
    toServer.close();
  }
}
