package dev.herald.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A stand-in authorization server for the verifiers' unit tests: locally generated keys, a JWKS
 * endpoint and RFC 8414 metadata on the JDK's HTTP server, and tokens signed here. The tests
 * against a real authorization server are in {@code SpringAuthorizationServerTest}.
 */
final class LocalAuthorizationServer implements AutoCloseable {
  static final String AUDIENCE = "https://mcp.example.com/mcp";

  private final HttpServer server;
  private final List<JWK> published = new CopyOnWriteArrayList<>();
  final AtomicInteger jwksFetches = new AtomicInteger();
  final AtomicInteger metadataFetches = new AtomicInteger();
  volatile int jwksStatus = 200;

  /** While set, the JWKS endpoint holds each request until the latch is released. */
  volatile java.util.concurrent.@org.jspecify.annotations.Nullable CountDownLatch jwksHold;

  volatile String introspectionAnswer = "{\"active\":false}";
  volatile String introspectionAuthorization = "";
  final AtomicInteger introspections = new AtomicInteger();

  LocalAuthorizationServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/jwks",
        ex -> {
          jwksFetches.incrementAndGet();
          java.util.concurrent.CountDownLatch hold = jwksHold;
          if (hold != null) {
            try {
              hold.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          respond(ex, jwksStatus, new JWKSet(List.copyOf(published)).toString(true));
        });
    server.createContext(
        "/.well-known/oauth-authorization-server",
        ex -> {
          metadataFetches.incrementAndGet();
          respond(ex, 200, "{\"issuer\":\"" + issuer() + "\",\"jwks_uri\":\"" + jwksUri() + "\"}");
        });
    server.createContext(
        "/introspect",
        ex -> {
          introspections.incrementAndGet();
          String auth = ex.getRequestHeaders().getFirst("Authorization");
          introspectionAuthorization = auth == null ? "" : auth;
          ex.getRequestBody().readAllBytes();
          respond(ex, 200, introspectionAnswer);
        });
    server.start();
  }

  private static void respond(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
    ex.close();
  }

  String issuer() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  URI jwksUri() {
    return URI.create(issuer() + "/jwks");
  }

  URI introspectionUri() {
    return URI.create(issuer() + "/introspect");
  }

  /** Publishes {@code key}'s public half. */
  void publish(JWK key) {
    published.add(key.toPublicJWK());
  }

  void unpublishAll() {
    published.clear();
  }

  static RSAKey rsaKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  static ECKey ecKey(String kid) {
    try {
      return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Claims that pass every check: this issuer, the audience, an hour to live. */
  JWTClaimsSet.Builder claims() {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(issuer())
        .audience(AUDIENCE)
        .subject("alice")
        .claim("client_id", "cli")
        .claim("scope", "tools:read tools:call")
        .issueTime(java.util.Date.from(now))
        .expirationTime(java.util.Date.from(now.plusSeconds(3600)));
  }

  String sign(JWK key, UnaryOperator<JWTClaimsSet.Builder> claims) {
    try {
      JWSHeader header =
          new JWSHeader.Builder(key instanceof ECKey ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256)
              .keyID(key.getKeyID())
              .build();
      SignedJWT jwt = new SignedJWT(header, claims.apply(claims()).build());
      jwt.sign(key instanceof ECKey ec ? new ECDSASigner(ec) : new RSASSASigner((RSAKey) key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  String sign(JWK key) {
    return sign(key, c -> c);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
