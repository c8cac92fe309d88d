package dev.herald.cli;

import dev.herald.http.matrix.EraMatrix;
import dev.herald.server.ServedEras;
import tools.jackson.databind.JsonNode;

/**
 * A test-only stdio server for the era matrix, serving the eras named by {@code -Dmatrix.eras}
 * ({@link ServedEras} names; DUAL by default): the matrix server of {@link EraMatrix}, whose {@code
 * steps} tool reports progress, {@code ask} asks for input, {@code grow} adds a tool. Every request that reaches a handler is written to
 * stderr as {@code SEEN <method> <params._meta>}, so a test can check what its client sent.
 */
public final class EraMatrixServer {
  static final String SEEN = "SEEN ";

  private EraMatrixServer() {}

  public static void main(String[] args) throws Exception {
    ServedEras eras = ServedEras.valueOf(System.getProperty("matrix.eras", "DUAL"));
    EraMatrix.server(
            eras,
            b ->
                b.interceptor(chain -> {
                  JsonNode params = chain.params();
                  JsonNode meta = params == null ? null : params.get("_meta");
                  System.err.println(
                      SEEN + chain.method() + " " + (meta == null ? "{}" : meta.toString()));
                  return chain.proceed();
                }))
        .serveStdio();
  }
}
