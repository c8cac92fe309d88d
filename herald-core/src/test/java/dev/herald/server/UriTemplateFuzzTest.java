package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.Fuzz;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes URI template matching (RFC 6570 level 1, as {@code resources/read} uses it): a value
 * expanded by the RFC's rules comes back from matching exactly, a variable whose percent-escapes
 * are not UTF-8 matches nothing, matching any string never throws, and parsing a mutated
 * template fails only with {@link IllegalArgumentException}.
 */
class UriTemplateFuzzTest {
  record Case(String template, List<String> names, List<byte[]> values) {
    /** The level-1 expansion: every byte outside the unreserved set percent-encoded. */
    String expand() {
      String out = template;
      for (int i = 0; i < names.size(); i++) {
        out = out.replace("{" + names.get(i) + "}", encode(values.get(i)));
      }
      return out;
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.longs().map(seed -> randomCase(new Random(seed)));
  }

  static Case randomCase(Random r) {
    String[] literals = {"test://x/", "file:///", "a:", "demo://users/", "/", "s3://b/k/"};
    StringBuilder t = new StringBuilder(literals[r.nextInt(literals.length)]);
    List<String> names = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        t.append('/').append(r.nextBoolean() ? "seg" + i + "/" : "");
      }
      String name = "v" + i + (r.nextBoolean() ? "_x" : "");
      names.add(name);
      t.append('{').append(name).append('}');
      if (r.nextBoolean()) {
        t.append(".json");
      }
      byte[] v;
      if (r.nextInt(3) == 0) {
        v = new byte[1 + r.nextInt(6)];
        r.nextBytes(v); // arbitrary bytes: often not UTF-8
      } else {
        v = randomText(r).getBytes(StandardCharsets.UTF_8);
      }
      values.add(v);
    }
    return new Case(t.toString(), names, values);
  }

  private static String randomText(Random r) {
    String pool = "aZ09-._~ /?#%+&=:@!$'()*,;[]\u00e9\u4e2d\ud83d\ude00\u0000\u007f";
    StringBuilder s = new StringBuilder();
    int n = 1 + r.nextInt(10);
    for (int i = 0; i < n; i++) {
      char c = pool.charAt(r.nextInt(pool.length()));
      if (Character.isHighSurrogate(c)) {
        s.append("\ud83d\ude00");
      } else if (!Character.isLowSurrogate(c)) {
        s.append(c);
      }
    }
    return s.isEmpty() ? "a" : s.toString(); // a variable stands for one character or more
  }

  @Property
  void anExpandedValueMatchesBackExactlyAndMalformedUtf8MatchesNothing(@ForAll("cases") Case c) {
    UriTemplate template = UriTemplate.parse(c.template());
    Optional<Map<String, String>> matched = Fuzz.bounded(() -> template.match(c.expand()));
    boolean allUtf8 = c.values().stream().allMatch(UriTemplateFuzzTest::strictUtf8);
    if (!allUtf8) {
      assertThat(matched).isEmpty();
      return;
    }
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < c.names().size(); i++) {
      expected.put(c.names().get(i), new String(c.values().get(i), StandardCharsets.UTF_8));
    }
    assertThat(matched).contains(expected);
  }

  @Provide
  Arbitrary<String> uris() {
    Arbitrary<String> expanded = cases().map(Case::expand);
    return Arbitraries.oneOf(
        expanded, Fuzz.mutatedText(expanded), Arbitraries.strings().ofMaxLength(60));
  }

  @Property
  void matchingAnyUriNeverThrows(@ForAll("uris") String uri) {
    UriTemplate template = UriTemplate.parse("test://x/{v0}/seg1/{v1}");
    Optional<Map<String, String>> matched = Fuzz.bounded(() -> template.match(uri));
    matched.ifPresent(m ->
        assertThat(m.values())
            .noneMatch(v ->
                v.contains("\uFFFD")
                    && !uri.contains("\uFFFD")
                    && !uri.toUpperCase(java.util.Locale.ROOT).contains("%EF%BF%BD")));
  }

  @Provide
  Arbitrary<String> templates() {
    return Fuzz.mutatedText(cases().map(Case::template));
  }

  @Property
  void parsingAMutatedTemplateFailsOnlyWithIllegalArgument(@ForAll("templates") String template) {
    try {
      UriTemplate parsed = Fuzz.bounded(() -> UriTemplate.parse(template));
      Fuzz.bounded(() -> parsed.match(template));
    } catch (IllegalArgumentException expected) {
      assertThat(expected.getMessage()).contains("uri template");
    }
  }

  /**
   * Found by {@link #anExpandedValueMatchesBackExactlyAndMalformedUtf8MatchesNothing}: escapes of
   * bytes that are not UTF-8 (an overlong {@code .}, a lone continuation byte) were decoded
   * leniently into replacement characters instead of matching nothing.
   */
  @Example
  void percentEscapesThatAreNotUtf8MatchNothing() {
    UriTemplate template = UriTemplate.parse("test://template/{id}/data");
    assertThat(template.match("test://template/%C0%AE%C0%AE/data")).isEmpty();
    assertThat(template.match("test://template/%80/data")).isEmpty();
    assertThat(template.match("test://template/%E4%B8/data")).isEmpty();
    assertThat(template.match("test://template/%E4%B8%AD/data")).contains(Map.of("id", "\u4e2d"));
    assertThat(template.match("test://template/a+b%2F%25/data")).contains(Map.of("id", "a+b/%"));
    assertThatThrownBy(() -> UriTemplate.parse("test://{a"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static String encode(byte[] value) {
    StringBuilder s = new StringBuilder();
    for (byte b : value) {
      int c = b & 0xFF;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "-._~".indexOf(c) >= 0) {
        s.append((char) c);
      } else {
        s.append('%').append(String.format("%02X", c));
      }
    }
    return s.toString();
  }

  static boolean strictUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
