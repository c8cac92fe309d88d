package dev.herald.cli;

import dev.herald.client.auth.OAuthClient;
import dev.herald.client.auth.TokenStore;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code herald logout <url>}: forgets the tokens kept for a protected HTTP server. */
@Command(
    name = "logout",
    description = {
      "Forget the tokens kept for a protected server.",
      "  herald logout <http(s)://url>"
    },
    mixinStandardHelpOptions = true)
final class LogoutCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "URL", description = "The server's URL.")
  URI url;

  @Override
  public Integer call() {
    TokenStore store = TokenStore.file(Login.tokenFile());
    String key = OAuthClient.storeKey(url);
    boolean had = store.load(key).isPresent();
    store.remove(key);
    System.err.println(
        had ? "herald: logged out of " + key : "herald: no tokens were kept for " + key);
    return 0;
  }
}
