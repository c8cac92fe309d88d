package dev.herald.transport.http;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link Http1Client} against a raw socket server: the wire's edge cases. */
@Timeout(60)
class Http1ClientTest {
  private final Http1Client client = Http1Client.builder().headWait(Duration.ofMillis(20)).build();
  private RawServer server;

  @AfterEach
  void stop() throws IOException {
    client.close();
    if (server != null) {
      server.close();
    }
  }

  private static HttpRequest post(java.net.URI uri, String body) {
    return HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private String get(String path) throws Exception {
    return client
        .send(
            HttpRequest.newBuilder(server.uri(path)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void aPostGoesOutWithItsLengthAndItsAnswerIsCompleteWhenSendAsyncReturns() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    server =
        new RawServer(c -> {
          String r;
          while ((r = c.request()) != null) {
            seen.add(r);
            c.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok");
          }
        });
    CompletableFuture<HttpResponse<String>> f =
        client.sendAsync(
            post(server.uri("/mcp?x=1"), "{\"a\":1}"), HttpResponse.BodyHandlers.ofString());
    assertThat(f).isCompleted();
    assertThat(f.get().body()).isEqualTo("ok");
    assertThat(f.get().headers().firstValue("content-type")).hasValue("text/plain");
    assertThat(seen.getFirst())
        .startsWith("POST /mcp?x=1 HTTP/1.1\r\n")
        .contains("Host: 127.0.0.1:")
        .contains("Content-Length: 7\r\n")
        .endsWith("\r\n\r\n{\"a\":1}");
    client.send(post(server.uri("/mcp"), "{}"), HttpResponse.BodyHandlers.ofString());
    assertThat(server.connections).hasValue(1); // the connection was kept and reused
  }

  @Test
  void anHttpsExchangeRunsOverTlsCheckingTheServersNameAndKeepsItsConnection(@TempDir Path dir)
      throws Exception {
    Tls tls = selfSigned(dir, "ip:127.0.0.1");
    server = secretServer(tls);
    try (Http1Client https = Http1Client.builder().sslContext(tls.client()).build()) {
      for (int i = 0; i < 2; i++) {
        HttpResponse<String> r =
            https.send(post(server.uri("/mcp"), "{}"), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo("secret");
      }
      assertThat(server.connections).hasValue(1);
    }
    // the JDK's default trust store does not know this certificate: the handshake fails
    assertThatThrownBy(() -> get("/mcp")).isInstanceOf(IOException.class);
  }

  @Test
  void aTrustedCertificateForAnotherNameIsRefused(@TempDir Path dir) throws Exception {
    Tls tls = selfSigned(dir, "dns:mcp.example.org");
    server = secretServer(tls);
    try (Http1Client https = Http1Client.builder().sslContext(tls.client()).build()) {
      assertThatThrownBy(() ->
              https.send(post(server.uri("/mcp"), "{}"), HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class)
          .hasMessageContaining("127.0.0.1");
    }
  }

  /** A TLS server answering every request with "secret". */
  private static RawServer secretServer(Tls tls) throws IOException {
    return new RawServer(
        c -> {
          while (c.request() != null) {
            c.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecret");
          }
        },
        tls.server());
  }

  /** A server's TLS context with a self-signed key, and a client's that trusts only it. */
  private record Tls(SSLContext server, SSLContext client) {}

  /** A self-signed certificate with the subject alternative name {@code san}, by JDK keytool. */
  private static Tls selfSigned(Path dir, String san) throws Exception {
    Path store = dir.resolve("server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=" + san,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    keytool.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    assertThat(keytool.waitFor()).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(kmf.getKeyManagers(), null, null);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks); // the certificate of the key entry is trusted
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, tmf.getTrustManagers(), null);
    return new Tls(server, client);
  }

  @Test
  void aChunkedBodyIsDecodedAndItsTrailersSkipped() throws Exception {
    server =
        new RawServer(c -> {
          while (c.request() != null) {
            c.write(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n");
          }
        });
    assertThat(get("/a")).isEqualTo("hello, world");
    assertThat(get("/b")).isEqualTo("hello, world");
    assertThat(server.connections).hasValue(1);
  }

  @Test
  void aBodyWithoutLengthIsReadUntilTheServerCloses() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 200 OK\r\n\r\nuntil the end");
          c.close();
        });
    assertThat(get("/")).isEqualTo("until the end");
    assertThat(client.idleConnections()).isZero();
  }

  @Test
  void informationalAnswersAreSkippedAndNoContentHasNoBody() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n");
          c.write("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n");
          c.request();
          c.write("HTTP/1.1 304 Not Modified\r\n\r\n");
          c.request();
          c.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend");
        });
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(server.uri("/")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(r.body()).isEmpty();
    assertThat(get("/")).isEmpty();
    assertThat(get("/")).isEqualTo("end"); // the same connection: nothing was left unread
    assertThat(server.connections).hasValue(1);
  }

  @Test
  void aMalformedStatusLineFailsTheExchangeNamingTheServerAndClosesTheConnection()
      throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 2x0 Fine\r\n\r\n");
          c.awaitClose();
        });
    assertThatThrownBy(() -> get("/"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("malformed HTTP response from http://127.0.0.1:")
        .hasMessageContaining("status line");
    eventually(() -> server.closedByClient.get() == 1, "the client closed the connection");
    assertThat(client.inFlight()).isZero();
  }

  @Test
  void aMalformedChunkSizeFailsTheBody() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n");
          c.awaitClose();
        });
    assertThatThrownBy(() -> get("/"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("chunk size");
    eventually(() -> server.closedByClient.get() == 1, "the client closed the connection");
  }

  @Test
  void anOversizeHeadFailsTheExchange() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          StringBuilder b = new StringBuilder("HTTP/1.1 200 OK\r\n");
          for (int i = 0; i < 2_000; i++) {
            b.append("X-Filler-").append(i).append(": ").append("y".repeat(40)).append("\r\n");
          }
          c.write(b.toString());
          c.awaitClose();
        });
    assertThatThrownBy(() -> get("/"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("larger than 65536 bytes");
    eventually(() -> server.closedByClient.get() == 1, "the client closed the connection");
  }

  @Test
  void aPooledConnectionTheServerClosedIsRetriedOnceOnAFreshOne() throws Exception {
    server =
        new RawServer(c -> {
          if (c.request() == null) {
            return;
          }
          c.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst");
          // the next request on this connection is read, then the connection is dropped
          c.request();
          c.close();
        });
    assertThat(get("/")).isEqualTo("first");
    // the second request meets the dropped connection, and goes again on a fresh one
    assertThat(get("/")).isEqualTo("first");
    assertThat(server.connections).hasValue(2);
  }

  @Test
  void aSecondFailureAfterTheRetryIsReported() throws Exception {
    server =
        new RawServer(c -> {
          if (server.connections.get() == 1) {
            c.request();
            c.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
          }
          c.request();
          c.close(); // every later request: dropped without an answer
        });
    assertThat(get("/")).isEqualTo("ok");
    assertThatThrownBy(() -> get("/"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("closed the connection before answering");
    assertThat(server.connections).hasValue(2); // one retry, not more
  }

  @Test
  void connectionCloseIsHonoured() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\none");
          c.awaitClose();
        });
    assertThat(get("/")).isEqualTo("one");
    assertThat(get("/")).isEqualTo("one");
    assertThat(server.connections).hasValue(2);
    eventually(() -> server.closedByClient.get() == 2, "the client closed both connections");
    assertThat(client.idleConnections()).isZero();
  }

  @Test
  void closingAStreamedBodyMidwayClosesTheConnectionAndUnblocksItsReader() throws Exception {
    CountDownLatch closed = new CountDownLatch(1);
    server =
        new RawServer(c -> {
          c.request();
          c.write(
              "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n6\r\ndata:1\r\n");
          if (c.awaitClose()) {
            closed.countDown();
          }
        });
    HttpResponse<InputStream> r =
        client.send(
            HttpRequest.newBuilder(server.uri("/")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    InputStream in = r.body();
    assertThat(new String(in.readNBytes(6), StandardCharsets.US_ASCII)).isEqualTo("data:1");
    CompletableFuture<Integer> blocked =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return in.read();
              } catch (IOException e) {
                return -2;
              }
            },
            r2 -> Thread.ofVirtual().start(r2));
    eventually(() -> client.inFlight() == 1, "the body is being read");
    in.close();
    assertThat(closed.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(blocked.get(30, TimeUnit.SECONDS)).isIn(-1, -2);
    eventually(() -> client.inFlight() == 0, "the exchange is over");
    assertThat(client.idleConnections()).isZero();
  }

  @Test
  void aSubscriberThatAsksAheadGetsWhatCameWithoutWaitingForWhatDidNot() throws Exception {
    CountDownLatch firstLineRead = new CountDownLatch(1);
    server =
        new RawServer(c -> {
          c.request();
          c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\na\n\r\n");
          firstLineRead.await(); // the rest only once the client has the first line
          c.write("2\r\nb\n\r\n0\r\n\r\n");
          c.request();
        });
    HttpResponse<java.util.stream.Stream<String>> r =
        client.send(
            HttpRequest.newBuilder(server.uri("/")).build(),
            HttpResponse.BodyHandlers.ofLines()); // the JDK's line subscriber asks ahead
    java.util.Iterator<String> lines = r.body().iterator();
    assertThat(lines.next()).isEqualTo("a");
    firstLineRead.countDown();
    assertThat(lines.next()).isEqualTo("b");
    assertThat(lines.hasNext()).isFalse();
    eventually(() -> client.idleConnections() == 1, "the connection is back in the pool");
  }

  @Test
  void anAnswerSlowerThanTheHeadWaitCompletesTheFutureLater() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    server =
        new RawServer(c -> {
          c.request();
          answer.await();
          c.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlate");
          c.request();
          c.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext");
        });
    CompletableFuture<HttpResponse<String>> f =
        client.sendAsync(post(server.uri("/"), "{}"), HttpResponse.BodyHandlers.ofString());
    assertThat(f).isNotDone(); // returned after the head wait
    answer.countDown();
    assertThat(f.get(30, TimeUnit.SECONDS).body()).isEqualTo("late");
    assertThat(get("/")).isEqualTo("next");
    assertThat(server.connections).hasValue(1);
  }

  @Test
  void theRequestTimeoutFailsTheExchangeAndClosesTheConnection() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.awaitClose();
        });
    HttpRequest r = HttpRequest.newBuilder(server.uri("/")).timeout(Duration.ofSeconds(2)).build();
    assertThatThrownBy(() -> client.send(r, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    eventually(() -> server.closedByClient.get() == 1, "the client closed the connection");
  }

  @Test
  void cancellingAPendingFutureClosesItsConnection() throws Exception {
    server =
        new RawServer(c -> {
          c.request();
          c.awaitClose();
        });
    CompletableFuture<HttpResponse<String>> f =
        client.sendAsync(post(server.uri("/"), "{}"), HttpResponse.BodyHandlers.ofString());
    assertThat(f.cancel(true)).isTrue();
    eventually(() -> server.closedByClient.get() == 1, "the client closed the connection");
    eventually(() -> client.inFlight() == 0, "nothing in flight");
  }

  @Test
  void closingTheClientClosesEveryConnectionInFlightAndInThePool() throws Exception {
    server =
        new RawServer(c -> {
          String r = c.request();
          if (r.startsWith("GET /quick")) {
            c.write("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nq");
          }
          c.awaitClose();
        });
    List<CompletableFuture<HttpResponse<String>>> slow = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      slow.add(
          client.sendAsync(post(server.uri("/slow"), "{}"), HttpResponse.BodyHandlers.ofString()));
    }
    assertThat(get("/quick")).isEqualTo("q"); // a fourth connection, back in the pool
    assertThat(client.idleConnections()).isOne();
    assertThat(server.connections).hasValue(4);
    client.close();
    eventually(() -> server.closedByClient.get() == 4, "every connection closed");
    for (CompletableFuture<HttpResponse<String>> f : slow) {
      assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class);
    }
    assertThat(client.isTerminated()).isTrue();
    assertThatThrownBy(() -> get("/quick"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("shut down");
  }
}
