package dev.herald.client.auth;

import dev.herald.wire.McpJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link TokenStore} in one JSON file: an object whose keys are MCP server URIs and whose values
 * are the grants' fields. On a POSIX file system the file is created {@code rw-------} and its
 * missing parent directories {@code rwx------}; every save writes a new file with those
 * permissions beside the old one and moves it over it, so a reader never sees half a file and the
 * tokens are never readable by other users, even for a moment.
 *
 * <p>The file is read once, on first use; a file that cannot be read as such a document is
 * treated as empty (and replaced on the next save). Threading: one lock guards the in-memory copy
 * and the writes.
 */
public final class FileTokenStore implements TokenStore {
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");

  private final Path file;
  private final ReentrantLock lock = new ReentrantLock();

  /** Guarded by {@link #lock}; null until first read. */
  private @Nullable Map<String, StoredGrant> grants;

  FileTokenStore(Path file) {
    this.file = file.toAbsolutePath();
  }

  /** The file the grants are kept in. */
  public Path file() {
    return file;
  }

  @Override
  public Optional<StoredGrant> load(String server) {
    lock.lock();
    try {
      return Optional.ofNullable(grants().get(server));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void save(String server, StoredGrant grant) {
    lock.lock();
    try {
      grants().put(server, grant);
      write();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void remove(String server) {
    lock.lock();
    try {
      if (grants().remove(server) != null) {
        write();
      }
    } finally {
      lock.unlock();
    }
  }

  private Map<String, StoredGrant> grants() {
    Map<String, StoredGrant> g = grants;
    if (g == null) {
      g = read();
      grants = g;
    }
    return g;
  }

  private Map<String, StoredGrant> read() {
    Map<String, StoredGrant> out = new LinkedHashMap<>();
    if (!Files.isRegularFile(file)) {
      return out;
    }
    try {
      JsonNode root = McpJson.mapper().readTree(Files.readAllBytes(file));
      if (root instanceof ObjectNode o) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
          StoredGrant g = grant(e.getValue());
          if (g != null) {
            out.put(e.getKey(), g);
          }
        }
      }
    } catch (IOException | JacksonException | IllegalArgumentException e) {
      System.getLogger("dev.herald.client.auth")
          .log(
              System.Logger.Level.WARNING,
              "ignoring unreadable token file {0}: {1}",
              file,
              e.getMessage());
    }
    return out;
  }

  private static @Nullable StoredGrant grant(JsonNode n) {
    String issuer = text(n, "issuer");
    String tokenEndpoint = text(n, "token_endpoint");
    String resource = text(n, "resource");
    String clientId = text(n, "client_id");
    String method = text(n, "auth_method");
    String access = text(n, "access_token");
    if (issuer == null
        || tokenEndpoint == null
        || resource == null
        || clientId == null
        || method == null
        || access == null) {
      return null;
    }
    String expires = text(n, "expires_at");
    return new StoredGrant(
        issuer,
        URI.create(tokenEndpoint),
        resource,
        clientId,
        text(n, "client_secret"),
        method,
        access,
        text(n, "refresh_token"),
        expires == null ? null : Instant.parse(expires),
        text(n, "scope"));
  }

  private static @Nullable String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && v.isString() ? v.stringValue() : null;
  }

  private void write() {
    ObjectNode root = McpJson.object();
    for (Map.Entry<String, StoredGrant> e : grants().entrySet()) {
      StoredGrant g = e.getValue();
      ObjectNode n = root.putObject(e.getKey());
      n.put("issuer", g.issuer());
      n.put("token_endpoint", g.tokenEndpoint().toString());
      n.put("resource", g.resource());
      n.put("client_id", g.clientId());
      putIfSet(n, "client_secret", g.clientSecret());
      n.put("auth_method", g.authMethod());
      n.put("access_token", g.accessToken());
      putIfSet(n, "refresh_token", g.refreshToken());
      putIfSet(n, "expires_at", g.expiresAt() == null ? null : g.expiresAt().toString());
      putIfSet(n, "scope", g.scope());
    }
    try {
      Path dir = file.getParent();
      boolean posix =
          dir != null && dir.getFileSystem().supportedFileAttributeViews().contains("posix");
      if (dir != null && !Files.isDirectory(dir)) {
        if (posix) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        } else {
          Files.createDirectories(dir);
        }
      }
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      FileAttribute<?>[] attrs =
          posix
              ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)}
              : new FileAttribute<?>[0];
      try {
        Files.createFile(tmp, attrs);
      } catch (FileAlreadyExistsException e) {
        throw new IOException("another writer is using " + tmp, e);
      }
      Files.write(tmp, McpJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the token file " + file, e);
    }
  }

  private static void putIfSet(ObjectNode n, String field, @Nullable String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
