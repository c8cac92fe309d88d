package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.Fuzz;
import dev.herald.wire.JsonGen;
import dev.herald.wire.McpException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Fuzzes the opaque tokens a server issues and reads back (MCP 2025-11-25 server/utilities/
 * pagination cursors; MCP 2026-07-28 {@code requestState}): a mutated or random token is refused
 * with -32602 unless it is, character for character, one the server issued.
 */
class CursorAndStateFuzzTest {
  private static final Pagination PAGES = new Pagination(3);
  private static final List<Integer> CATALOG = IntStream.range(0, 40).boxed().toList();
  private static final List<String> ISSUED = issued();
  private static final RequestStateCodec STATES =
      new RequestStateCodec(RequestStateSettings.defaults());

  private static List<String> issued() {
    List<String> all = new ArrayList<>();
    String cursor = null;
    do {
      cursor = PAGES.page("tools/list", CATALOG, cursor).nextCursor();
      if (cursor != null) {
        all.add(cursor);
      }
    } while (cursor != null);
    return Collections.unmodifiableList(all);
  }

  @Provide
  Arbitrary<String> cursors() {
    Arbitrary<String> valid = Arbitraries.of(ISSUED);
    return Arbitraries.oneOf(
        Fuzz.mutatedText(valid), Arbitraries.strings().ofMaxLength(40), valid.map(c -> c + "=="));
  }

  @Property
  void aCursorIsAcceptedOnlyAsIssued(@ForAll("cursors") String cursor) {
    try {
      Pagination.Page<Integer> page = Fuzz.bounded(() -> PAGES.page("tools/list", CATALOG, cursor));
      assertThat(ISSUED).contains(cursor);
      assertThat(page.items()).isNotEmpty();
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(ISSUED).doesNotContain(cursor);
    }
  }

  @Property
  void aCursorOfOneListIsRefusedByAnother(@ForAll("cursors") String cursor) {
    assertThatThrownBy(() -> PAGES.page("prompts/list", CATALOG, cursor))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  /**
   * Found by {@link #aCursorIsAcceptedOnlyAsIssued}: the last base64 character of a cursor carries
   * spare bits the decoder ignored (and padding was allowed), so cursors that were never issued
   * were accepted.
   */
  @Example
  void aCursorWithOtherSpareBitsOrPaddingIsRefused() {
    String cursor = ISSUED.get(0);
    char last = cursor.charAt(cursor.length() - 1);
    String base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    String sibling =
        cursor.substring(0, cursor.length() - 1) + base64url.charAt(base64url.indexOf(last) ^ 1);
    for (String forged : List.of(sibling, cursor + "==")) {
      assertThatThrownBy(() -> PAGES.page("tools/list", CATALOG, forged))
          .isInstanceOf(McpException.class);
    }
  }

  record Sealed(RequestStateCodec.Claims claims, String state) {}

  @Provide
  Arbitrary<Sealed> sealed() {
    return Arbitraries.longs()
        .map(seed -> {
          Random r = new Random(seed);
          Map<String, RequestStateCodec.Answer> answers = new LinkedHashMap<>();
          Map<String, String> asked = new LinkedHashMap<>();
          for (int i = r.nextInt(3); i > 0; i--) {
            answers.put(
                JsonGen.text(r),
                new RequestStateCodec.Answer(
                    "d" + i, JsonNodeFactory.instance.stringNode(JsonGen.text(r))));
            asked.put(JsonGen.text(r), "q" + i);
          }
          RequestStateCodec.Claims claims =
              new RequestStateCodec.Claims(
                  "tools/call",
                  JsonGen.text(r),
                  RequestStateCodec.digest(JsonGen.text(r), 16),
                  r.nextBoolean() ? null : JsonGen.text(r),
                  System.currentTimeMillis() + 600_000,
                  answers,
                  asked,
                  r.nextBoolean() ? null : JsonGen.text(r));
          return new Sealed(claims, STATES.seal(claims));
        });
  }

  @Property
  void aRequestStateOpensOnlyAsSealed(@ForAll("sealed") Sealed sealed, @ForAll long seed) {
    assertThat(STATES.open(sealed.state())).isEqualTo(sealed.claims());
    String mutated = Fuzz.mutateText(sealed.state(), seed);
    try {
      RequestStateCodec.Claims opened = Fuzz.bounded(() -> STATES.open(mutated));
      assertThat(mutated).isEqualTo(sealed.state());
      assertThat(opened).isEqualTo(sealed.claims());
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(e.getMessage()).doesNotContain("java.", "Exception");
    }
  }

  @Property
  void aRandomRequestStateIsRefused(@ForAll("states") String state) {
    assertThatThrownBy(() -> Fuzz.bounded(() -> STATES.open(state)))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  @Provide
  Arbitrary<String> states() {
    Arbitrary<String> parts = Arbitraries.strings().withCharRange('-', 'z').ofMaxLength(30);
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(80),
        parts.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join(".", l)),
        parts.map(p -> "hs1." + p),
        Arbitraries.just("x".repeat(RequestStateSettings.DEFAULT_MAX_LENGTH + 1)));
  }
}
