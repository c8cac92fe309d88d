package dev.herald.oauth;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads a {@link Principal} from a token's claims, the same way for a JWT's claims set (RFC 9068)
 * and an introspection answer (RFC 7662): subject from {@code sub}, client from {@code client_id}
 * or else {@code azp}, scopes from {@code scope} (space-separated, or a list) or else {@code scp}
 * (a list, or space-separated), audience from {@code aud} (a string or a list), times in seconds
 * since the epoch. JSON nulls are left out of the principal's claims.
 */
final class Claims {
  private static final java.util.regex.Pattern SPACES = java.util.regex.Pattern.compile(" +");

  private Claims() {}

  static Principal principal(Map<String, Object> claims, @Nullable String issuer)
      throws InvalidTokenException {
    if (!(claims.get("sub") instanceof String subject) || subject.isEmpty()) {
      throw new InvalidTokenException("the token names no subject (sub)");
    }
    String clientId = string(claims.get("client_id"));
    if (clientId == null) {
      clientId = string(claims.get("azp"));
    }
    Map<String, Object> kept = new LinkedHashMap<>();
    claims.forEach((k, v) -> {
      if (k != null && v != null) {
        kept.put(k, v);
      }
    });
    return new Principal(
        issuer, subject, clientId, scopes(claims), instant(claims.get("exp")), kept);
  }

  static Set<String> scopes(Map<String, Object> claims) {
    Object scope = claims.containsKey("scope") ? claims.get("scope") : claims.get("scp");
    Set<String> out = new LinkedHashSet<>();
    if (scope instanceof String s) {
      for (String part : SPACES.split(s.strip(), -1)) {
        if (!part.isEmpty()) {
          out.add(part);
        }
      }
    } else if (scope instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof String s && !s.isEmpty()) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** The audiences {@code aud} names: none when it is absent or neither a string nor a list. */
  static List<String> audiences(@Nullable Object aud) {
    List<String> out = new ArrayList<>();
    if (aud instanceof String s) {
      out.add(s);
    } else if (aud instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof String s) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** A NumericDate (seconds since the epoch), or null when absent or not a number. */
  static @Nullable Instant instant(@Nullable Object seconds) {
    if (seconds instanceof Number n) {
      return Instant.ofEpochSecond(n.longValue());
    }
    if (seconds instanceof java.util.Date d) {
      return d.toInstant();
    }
    return null;
  }

  private static @Nullable String string(@Nullable Object value) {
    return value instanceof String s && !s.isEmpty() ? s : null;
  }
}
