package dev.herald.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.session.Scheduler;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The request an authorized caller makes is still answered when serving it throws on the
 * verifier's thread (a bug, or a module that cannot reach what it needs): never left hanging.
 */
@Timeout(60)
class BearerAuthContinuationTest {

  @Test
  void anAuthorizedRequestWhoseServingThrowsIsAnswered500() throws Exception {
    ProtectedResource resource =
        ProtectedResource.builder()
            .verifier(token -> Principal.of("alice", Set.of()))
            .resource(URI.create("http://127.0.0.1:1/mcp"))
            .authorizationServers(URI.create("http://127.0.0.1:2"))
            .build();
    BearerAuth auth = new BearerAuth(resource, Scheduler.system());
    Recording ex = new Recording("Bearer abc");
    auth.authenticate(
        ex,
        p -> {
          throw new IllegalAccessError("cannot reach the engine");
        });
    assertThat(ex.answered.get(30, TimeUnit.SECONDS)).isEqualTo(500);
    assertThat(ex.body.toString()).contains("-32603");
  }

  /** An exchange that records what it was answered. */
  private static final class Recording implements Exchange {
    final CompletableFuture<Integer> answered = new CompletableFuture<>();
    final StringBuilder body = new StringBuilder();
    private final String authorization;
    private int status;

    Recording(String authorization) {
      this.authorization = authorization;
    }

    @Override
    public String method() {
      return "POST";
    }

    @Override
    public String path() {
      return "/mcp";
    }

    @Override
    public String mountPrefix() {
      return "";
    }

    @Override
    public int localPort() {
      return 1;
    }

    @Override
    public String remoteAddress() {
      return "127.0.0.1";
    }

    @Override
    public @Nullable String header(String name) {
      return "Authorization".equalsIgnoreCase(name) ? authorization : null;
    }

    @Override
    public List<String> headers(String name) {
      return "Authorization".equalsIgnoreCase(name) ? List.of(authorization) : List.of();
    }

    @Override
    public @Nullable String queryParameter(String name) {
      return null;
    }

    @Override
    public long contentLength() {
      return 0;
    }

    @Override
    public void readBody(int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
      done.accept(new byte[0]);
    }

    @Override
    public void status(int status) {
      this.status = status;
    }

    @Override
    public void header(String name, String value) {}

    @Override
    public void write(ByteBuffer data, boolean last, Done done) {
      body.append(StandardCharsets.UTF_8.decode(data));
      if (last) {
        answered.complete(status);
      }
      done.succeeded();
    }

    @Override
    public void abort(Throwable cause) {
      answered.completeExceptionally(cause);
    }

    @Override
    public void onPeerGone(Consumer<Throwable> listener) {}

    @Override
    public void keepOpen() {}
  }
}
