package dev.herald.http.internal;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The DNS-rebinding guard (spec 2025-11-25 basic/transports, §Security Warning): {@code Host},
 * and {@code Origin} when present, must name this server, that is one of its own names (loopback,
 * or the bound address) with the port the request arrived on, or be on the allow-lists. Compares
 * in place, without building strings per request. Immutable.
 */
final class HostCheck {
  private static final String HTTP = "http://";
  private final Set<String> ownNames;
  private final Set<String> extraHosts;
  private final Set<String> extraOrigins;
  private final boolean anyHost;
  private final boolean anyOrigin;

  HostCheck(EndpointConfig config) {
    this.ownNames = config.ownNames;
    this.extraHosts = config.extraHosts;
    this.extraOrigins = config.extraOrigins;
    this.anyHost = extraHosts.contains("*");
    this.anyOrigin = extraOrigins.contains("*");
  }

  boolean hostAllowed(@Nullable String host, int localPort) {
    if (host == null) {
      return false;
    }
    return anyHost || own(host, 0, localPort) || listed(extraHosts, host);
  }

  boolean originAllowed(@Nullable String origin, int localPort) {
    if (origin == null || anyOrigin) {
      return true;
    }
    boolean http = origin.regionMatches(true, 0, HTTP, 0, HTTP.length());
    return (http && own(origin, HTTP.length(), localPort)) || listed(extraOrigins, origin);
  }

  /** Whether {@code value} from {@code from} on is {@code name:port} for one of the own names. */
  private boolean own(String value, int from, int port) {
    for (String name : ownNames) {
      int colon = from + name.length();
      if (value.length() > colon + 1
          && value.regionMatches(true, from, name, 0, name.length())
          && value.charAt(colon) == ':'
          && isPort(value, colon + 1, port)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isPort(String value, int from, int port) {
    int n = 0;
    for (int i = from; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9' || i - from > 5) {
        return false;
      }
      n = n * 10 + (c - '0');
    }
    return n == port;
  }

  private static boolean listed(Set<String> lowerCased, String value) {
    for (String s : lowerCased) {
      if (s.equalsIgnoreCase(value)) {
        return true;
      }
    }
    return false;
  }
}
