package dev.herald.server;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An RFC 6570 level-1 URI template ({@code demo://users/{id}/profile}) used for matching, not
 * expansion. A level-1 expansion percent-encodes every reserved character, so a variable matches
 * one or more characters other than {@code / ? #}; values are percent-decoded strictly (escapes
 * that are not UTF-8 match nothing, RFC 3986 §2.5). Operators of
 * levels 2 to 4 ({@code {+x}}, {@code {?x}}, {@code {x*}} ...) are refused when the template is
 * registered.
 */
final class UriTemplate {
  private static final Pattern VARNAME =
      Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_.]|%[0-9A-Fa-f]{2})*");

  private final String template;
  private final Pattern pattern;
  private final List<String> variables;

  private UriTemplate(String template, Pattern pattern, List<String> variables) {
    this.template = template;
    this.pattern = pattern;
    this.variables = variables;
  }

  /**
   * Parses a template.
   *
   * @throws IllegalArgumentException for anything beyond level 1 or an unbalanced brace
   */
  static UriTemplate parse(String template) {
    StringBuilder regex = new StringBuilder();
    List<String> vars = new ArrayList<>();
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf('{', i);
      int strayClose = template.indexOf('}', i);
      if (strayClose >= 0 && (open < 0 || strayClose < open)) {
        throw new IllegalArgumentException(
            "uri template " + template + " has a '}' without '{' at " + strayClose);
      }
      if (open < 0) {
        regex.append(Pattern.quote(template.substring(i)));
        break;
      }
      if (open > i) {
        regex.append(Pattern.quote(template.substring(i, open)));
      }
      int close = template.indexOf('}', open);
      if (close < 0) {
        throw new IllegalArgumentException(
            "uri template " + template + " has a '{' without '}' at " + open);
      }
      String name = template.substring(open + 1, close);
      if (!VARNAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "uri template "
                + template
                + ": {"
                + name
                + "} is not a level-1 variable (only {name} is supported)");
      }
      if (vars.contains(name)) {
        throw new IllegalArgumentException(
            "uri template " + template + " uses {" + name + "} twice");
      }
      vars.add(name);
      regex.append("([^/?#]+)");
      i = close + 1;
    }
    return new UriTemplate(template, Pattern.compile(regex.toString()), List.copyOf(vars));
  }

  String template() {
    return template;
  }

  List<String> variables() {
    return variables;
  }

  /** The variables, percent-decoded, when {@code uri} matches the whole template. */
  Optional<Map<String, String>> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int g = 0; g < variables.size(); g++) {
      String value = percentDecode(m.group(g + 1));
      if (value == null) {
        return Optional
            .empty(); // a malformed %-escape, or escapes that are not UTF-8, name nothing
      }
      values.put(variables.get(g), value);
    }
    return Optional.of(values);
  }

  /**
   * RFC 3986 §2.1 percent-decoding, strictly: each run of {@code %HH} escapes (ASCII hex digits
   * only) must be well-formed UTF-8 on its own; other characters, {@code +} included, stand for
   * themselves. Returns {@code null} for anything else, never replacement characters.
   */
  private static @Nullable String percentDecode(String raw) {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    StringBuilder out = new StringBuilder(raw.length());
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    int i = 0;
    while (i < raw.length()) {
      if (raw.charAt(i) != '%') {
        out.append(raw.charAt(i++));
        continue;
      }
      ByteBuffer bytes = ByteBuffer.allocate((raw.length() - i) / 3 + 1);
      while (i < raw.length() && raw.charAt(i) == '%') {
        int hi = i + 2 < raw.length() ? hex(raw.charAt(i + 1)) : -1;
        int lo = hi < 0 ? -1 : hex(raw.charAt(i + 2));
        if (lo < 0) {
          return null;
        }
        bytes.put((byte) (hi << 4 | lo));
        i += 3;
      }
      try {
        out.append(utf8.decode(bytes.flip()));
      } catch (CharacterCodingException e) {
        return null;
      }
    }
    return out.toString();
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
