package dev.herald.client.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A protected MCP server's refusal of one request (MCP 2025-11-25 basic/authorization §Protected
 * Resource Metadata Discovery Requirements and §Scope Challenge Handling): the HTTP status ({@code
 * 401} or {@code 403}), the raw {@code WWW-Authenticate} header, and the parameters of its {@code
 * Bearer} challenge ({@code resource_metadata}, {@code scope}, {@code error}, {@code
 * error_description}; RFC 6750 §3, RFC 9728 §5.1).
 *
 * @param resource the MCP endpoint the refused request went to
 * @param status the HTTP status, 401 or 403
 * @param header the {@code WWW-Authenticate} header as sent (several joined with ", "), or null
 * @param params the {@code Bearer} challenge's parameters, names in lower case
 * @param rejectedAuthorization the {@code Authorization} header the refused request carried, or
 *     null when it carried none
 */
public record Challenge(
    URI resource,
    int status,
    @Nullable String header,
    Map<String, String> params,
    @Nullable String rejectedAuthorization) {

  public Challenge {
    Objects.requireNonNull(resource, "resource");
    params = Map.copyOf(params);
  }

  /** Reads a refusal: {@code header} is the {@code WWW-Authenticate} value, null when absent. */
  public static Challenge of(
      URI resource, int status, @Nullable String header, @Nullable String rejectedAuthorization) {
    Map<String, String> params = header == null ? Map.of() : WwwAuthenticate.bearer(header);
    return new Challenge(resource, status, header, params, rejectedAuthorization);
  }

  /** {@code resource_metadata}: where the server's protected resource metadata is, if valid. */
  public Optional<URI> resourceMetadata() {
    String v = params.get("resource_metadata");
    if (v == null || v.isBlank()) {
      return Optional.empty();
    }
    try {
      URI u = new URI(v.strip());
      return u.isAbsolute() && u.getHost() != null ? Optional.of(u) : Optional.empty();
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /** {@code scope}: the scopes the server says the request needs, if it named any. */
  public Optional<String> scope() {
    return Optional.ofNullable(params.get("scope")).filter(s -> !s.isBlank());
  }

  /** The scopes of {@link #scope()}, in order, without duplicates. */
  public Set<String> scopes() {
    return scope().map(Challenge::split).orElse(Set.of());
  }

  /** {@code error}, e.g. {@code invalid_token} or {@code insufficient_scope}. */
  public Optional<String> error() {
    return Optional.ofNullable(params.get("error"));
  }

  /** {@code error_description}, if given. */
  public Optional<String> errorDescription() {
    return Optional.ofNullable(params.get("error_description"));
  }

  /** Whether this is a {@code 403} with {@code error="insufficient_scope"}: a step-up request. */
  public boolean insufficientScope() {
    return status == 403 && "insufficient_scope".equals(params.get("error"));
  }

  /** A one-line description for error messages: status and header. */
  public String describe() {
    return "HTTP " + status + (header == null ? " without WWW-Authenticate" : ": " + header);
  }

  /** Space-separated scopes as an ordered set (RFC 6749 §3.3). */
  static Set<String> split(String scopes) {
    Set<String> out = new LinkedHashSet<>();
    int i = 0;
    int n = scopes.length();
    while (i < n) {
      while (i < n && scopes.charAt(i) == ' ') {
        i++;
      }
      int start = i;
      while (i < n && scopes.charAt(i) != ' ') {
        i++;
      }
      if (i > start) {
        out.add(scopes.substring(start, i));
      }
    }
    return out;
  }
}
