package dev.herald.server;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seals and opens the {@code requestState} Herald issues with an {@code InputRequiredResult} (MCP
 * 2026-07-28 basic/patterns/mrtr, "Request State": attacker-controlled, to be integrity-protected
 * and bound to principal, expiry and request).
 *
 * <p>Design note. A state is {@code hs1.<keyId>.<payload>.<mac>}: the payload is the deflated JSON
 * of {@link Claims} in base64url, the mac is HMAC-SHA256 under the named key over everything
 * before it. Nothing is inflated or parsed before the mac checks out (so only what this server
 * wrote is ever decoded), and the inflated size is bounded too. Every failure is -32602 with a
 * message saying what was wrong, never which byte.
 */
final class RequestStateCodec {
  private static final String PREFIX = "hs1";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final RequestStateSettings settings;

  RequestStateCodec(RequestStateSettings settings) {
    this.settings = settings;
  }

  RequestStateSettings settings() {
    return settings;
  }

  /** An answer carried from an earlier round: the digest of what was asked, and the answer. */
  record Answer(String asked, JsonNode response) {}

  /**
   * What a state says.
   *
   * @param method the request's method
   * @param name the tool or prompt name, or the resource uri
   * @param arguments digest of the request's arguments
   * @param principal digest of the principal, or {@code null} when there was none
   * @param expiresAt epoch milliseconds after which the state is refused
   * @param answers the answers of earlier rounds, by input key
   * @param asked the input keys the last round asked, with the digest of each request
   * @param handlerState the handler's own state
   */
  record Claims(
      String method,
      String name,
      String arguments,
      @Nullable String principal,
      long expiresAt,
      Map<String, Answer> answers,
      Map<String, String> asked,
      @Nullable String handlerState) {}

  String seal(Claims claims) {
    ObjectNode json = McpJson.object();
    json.put("m", claims.method()).put("n", claims.name()).put("d", claims.arguments());
    if (claims.principal() != null) {
      json.put("p", claims.principal());
    }
    json.put("x", claims.expiresAt());
    ObjectNode answers = json.putObject("a");
    claims
        .answers()
        .forEach((k, a) -> answers.putObject(k).put("q", a.asked()).set("r", a.response()));
    ObjectNode asked = json.putObject("k");
    claims.asked().forEach(asked::put);
    if (claims.handlerState() != null) {
      json.put("s", claims.handlerState());
    }
    String body =
        PREFIX
            + "."
            + settings.currentKeyId
            + "."
            + B64.encodeToString(deflate(json.toString().getBytes(StandardCharsets.UTF_8)));
    String state = body + "." + B64.encodeToString(mac(settings.currentKeyId, body));
    if (state.length() > settings.maxLength) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "Internal error: the answers to carry make the requestState longer than "
              + settings.maxLength
              + " characters");
    }
    return state;
  }

  /**
   * Opens a state received from the client and checks its seal and expiry (not the binding).
   *
   * @throws McpException -32602 when the state is too long, malformed, not signed by a known key,
   *     or expired
   */
  Claims open(String state) {
    if (state.length() > settings.maxLength) {
      throw invalid("requestState is longer than " + settings.maxLength + " characters");
    }
    String[] parts = state.split("\\.", -1);
    byte[] key = parts.length == 4 && PREFIX.equals(parts[0]) ? settings.key(parts[1]) : null;
    if (key == null) {
      throw forged();
    }
    String body = parts[0] + "." + parts[1] + "." + parts[2];
    byte[] expected = mac(parts[1], body);
    byte[] given;
    byte[] payload;
    try {
      given = B64D.decode(parts[3]);
      payload = B64D.decode(parts[2]);
    } catch (IllegalArgumentException e) {
      throw forged();
    }
    // only the canonical encoding: base64 leaves spare bits in the last character, and a state
    // differing from the issued one in any character is not the issued one
    if (!MessageDigest.isEqual(expected, given) || !B64.encodeToString(given).equals(parts[3])) {
      throw forged();
    }
    Claims claims = parse(inflate(payload));
    if (settings.clock.millis() > claims.expiresAt()) {
      throw invalid(
          "requestState has expired; send the request again without requestState and"
              + " inputResponses");
    }
    return claims;
  }

  private Claims parse(byte[] json) {
    try {
      JsonNode tree = McpJson.mapper().readTree(json);
      Map<String, Answer> answers = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : tree.get("a").properties()) {
        answers.put(
            e.getKey(), new Answer(e.getValue().get("q").stringValue(), e.getValue().get("r")));
      }
      Map<String, String> asked = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : tree.get("k").properties()) {
        asked.put(e.getKey(), e.getValue().stringValue());
      }
      JsonNode p = tree.get("p");
      JsonNode s = tree.get("s");
      return new Claims(
          tree.get("m").stringValue(),
          tree.get("n").stringValue(),
          tree.get("d").stringValue(),
          p == null ? null : p.stringValue(),
          tree.get("x").longValue(),
          answers,
          asked,
          s == null ? null : s.stringValue());
    } catch (RuntimeException e) {
      throw forged(); // signed by a key we hold, yet not ours: a key shared with another program
    }
  }

  private byte[] mac(String keyId, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Objects.requireNonNull(settings.key(keyId), keyId), "HmacSHA256"));
      return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static byte[] deflate(byte[] raw) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    try {
      deflater.setInput(raw);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 16);
      byte[] buf = new byte[4096];
      while (!deflater.finished()) {
        out.write(buf, 0, deflater.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  private byte[] inflate(byte[] packed) {
    long limit = 16L * settings.maxLength;
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(packed);
      ByteArrayOutputStream out = new ByteArrayOutputStream(packed.length * 3 + 16);
      byte[] buf = new byte[4096];
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw forged();
        }
        out.write(buf, 0, n);
        if (out.size() > limit) {
          throw forged();
        }
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw forged();
    } finally {
      inflater.end();
    }
  }

  /** A base64url SHA-256 digest of a string, cut to {@code bytes} bytes. */
  static String digest(String text, int bytes) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return B64.encodeToString(java.util.Arrays.copyOf(d, bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** JSON with object members sorted by name, so equal values digest equally. */
  static String canonical(@Nullable JsonNode node) {
    StringBuilder out = new StringBuilder();
    canonical(node, out);
    return out.toString();
  }

  private static void canonical(@Nullable JsonNode node, StringBuilder out) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      out.append('{');
      java.util.List<String> names = new java.util.ArrayList<>(node.propertyNames());
      java.util.Collections.sort(names);
      boolean first = true;
      for (String name : names) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(McpJson.mapper().writeValueAsString(name)).append(':');
        canonical(node.get(name), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        canonical(node.get(i), out);
      }
      out.append(']');
    } else {
      out.append(node.toString());
    }
  }

  static McpException invalid(String why) {
    return McpException.invalidParams("Invalid params: " + why);
  }

  private static McpException forged() {
    return invalid("requestState is not one this server issued (its integrity check failed)");
  }
}
