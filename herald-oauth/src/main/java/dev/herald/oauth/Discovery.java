package dev.herald.oauth;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds an authorization server's metadata from its issuer identifier, in the order the MCP
 * specification (2025-11-25 {@code basic/authorization}, "Authorization Server Metadata
 * Discovery") gives: for an issuer with a path, RFC 8414's path-inserted OAuth location, then
 * OpenID Connect discovery with the path inserted, then appended; for one without, the OAuth
 * location, then the OpenID one. A document counts only if its {@code issuer} is exactly the
 * configured issuer (RFC 8414 section 3.3), so a document served for another issuer is never used.
 */
final class Discovery {
  private Discovery() {}

  /** The well-known locations to try for {@code issuer}, in order. */
  static List<URI> locations(URI issuer) {
    String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
    List<URI> out = new ArrayList<>();
    if (path.isEmpty()) {
      out.add(URI.create(origin + "/.well-known/oauth-authorization-server"));
      out.add(URI.create(origin + "/.well-known/openid-configuration"));
    } else {
      out.add(URI.create(origin + "/.well-known/oauth-authorization-server" + path));
      out.add(URI.create(origin + "/.well-known/openid-configuration" + path));
      out.add(URI.create(origin + path + "/.well-known/openid-configuration"));
    }
    return out;
  }

  /**
   * The first metadata document for {@code issuer} that names it as its issuer.
   *
   * @throws HttpFetch.FetchException when none could be read; it says whether time ran out
   */
  static Map<String, Object> metadata(HttpFetch http, String issuer, long deadline)
      throws HttpFetch.FetchException {
    List<String> failures = new ArrayList<>();
    boolean timedOut = false;
    for (URI location : locations(URI.create(issuer))) {
      try {
        Map<String, Object> doc =
            JSONObjectUtils.parse(new String(http.get(location, deadline), StandardCharsets.UTF_8));
        if (issuer.equals(doc.get("issuer"))) {
          return doc;
        }
        failures.add(location + " names another issuer");
      } catch (HttpFetch.FetchException e) {
        if (e.timedOut()) {
          timedOut = true;
          break;
        }
        failures.add(e.getMessage());
      } catch (ParseException e) {
        failures.add(location + " is not a JSON object");
      }
    }
    throw new HttpFetch.FetchException(
        "no authorization server metadata for " + issuer + ": " + String.join("; ", failures),
        timedOut,
        null);
  }

  /** The URI a metadata member names, or a failure naming the member. */
  static URI uri(Map<String, Object> metadata, String member) throws HttpFetch.FetchException {
    if (metadata.get(member) instanceof String s) {
      try {
        URI uri = new URI(s);
        if (uri.isAbsolute()) {
          return uri;
        }
      } catch (java.net.URISyntaxException e) {
        // reported below
      }
    }
    throw new HttpFetch.FetchException(
        "the authorization server metadata has no usable " + member, false, null);
  }
}
