package dev.herald.client.auth;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where an {@link OAuthClient} keeps its grants, one per MCP server, keyed by the server's
 * canonical URI (RFC 8707 §2: lower-case scheme and host, no fragment).
 *
 * <p>{@link #inMemory()} is the default (tokens last as long as the client); {@link #file(Path)}
 * keeps them in a JSON file readable only by its owner, for a command-line host.
 *
 * {@snippet :
 * TokenStore store = TokenStore.file(Path.of(System.getProperty("user.home"), ".config/herald/tokens.json"));
 * OAuthClient auth = OAuthClient.builder().tokenStore(store).build();
 * }
 *
 * <p>Threading: implementations are safe for concurrent use. {@link #load} is called before every
 * request, so it should answer from memory.
 */
public interface TokenStore {
  /** The grant kept for {@code server}, if any. */
  Optional<StoredGrant> load(String server);

  /** Keeps {@code grant} for {@code server}, replacing any other. */
  void save(String server, StoredGrant grant);

  /** Forgets the grant for {@code server} (a logout). */
  void remove(String server);

  /** A store in memory, empty at first. */
  static TokenStore inMemory() {
    Map<String, StoredGrant> grants = new ConcurrentHashMap<>();
    return new TokenStore() {
      @Override
      public Optional<StoredGrant> load(String server) {
        return Optional.ofNullable(grants.get(server));
      }

      @Override
      public void save(String server, StoredGrant grant) {
        grants.put(server, grant);
      }

      @Override
      public void remove(String server) {
        grants.remove(server);
      }
    };
  }

  /**
   * A store in the JSON file {@code file}, created (with its missing parent directories) with
   * owner-only permissions on a POSIX file system; see {@link FileTokenStore}.
   */
  static TokenStore file(Path file) {
    return new FileTokenStore(file);
  }
}
