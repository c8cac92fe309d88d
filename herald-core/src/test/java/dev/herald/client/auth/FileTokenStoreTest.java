package dev.herald.client.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTokenStoreTest {
  private static final StoredGrant GRANT =
      new StoredGrant(
          "https://as.example.com",
          URI.create("https://as.example.com/token"),
          "https://mcp.example.com/mcp",
          "client-1",
          null,
          "none",
          "access-1",
          "refresh-1",
          Instant.parse("2026-12-02T04:00:00Z"),
          "files:read");

  @TempDir Path dir;

  @Test
  void theFileAndItsNewDirectoryAreReadableByTheOwnerOnly() throws Exception {
    assumeThat(dir.getFileSystem().supportedFileAttributeViews()).contains("posix");
    Path file = dir.resolve("config/herald/tokens.json");
    TokenStore.file(file).save("https://mcp.example.com/mcp", GRANT);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
        .isEqualTo("rwx------");
    assertThat(Files.readString(file)).contains("access-1").doesNotContain("null");
  }

  @Test
  void aGrantSurvivesANewStoreOnTheSameFileAndLogoutForgetsIt() {
    Path file = dir.resolve("tokens.json");
    TokenStore.file(file).save("https://mcp.example.com/mcp", GRANT);
    TokenStore again = TokenStore.file(file);
    assertThat(again.load("https://mcp.example.com/mcp")).contains(GRANT);
    again.remove("https://mcp.example.com/mcp");
    assertThat(TokenStore.file(file).load("https://mcp.example.com/mcp")).isEmpty();
  }

  @Test
  void anUnreadableFileIsTreatedAsEmptyAndReplacedOnSave() throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(file, "{not json");
    TokenStore store = TokenStore.file(file);
    assertThat(store.load("https://mcp.example.com/mcp")).isEmpty();
    store.save("https://mcp.example.com/mcp", GRANT);
    assertThat(TokenStore.file(file).load("https://mcp.example.com/mcp")).contains(GRANT);
  }

  @Test
  void aGrantNeverPrintsItsTokens() {
    assertThat(GRANT.toString()).doesNotContain("access-1").doesNotContain("refresh-1");
  }
}
