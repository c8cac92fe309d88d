package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 server/utilities/completion page and the 2026-07-28 schema examples. */
class CompletionWireTest {

  @Test
  void promptReferenceWithContextRoundTrips() {
    CompleteParams p =
        assertRoundTrip(
            """
            {"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                      "io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},
                      "io.modelcontextprotocol/clientCapabilities":{}},
             "ref":{"type":"ref/prompt","name":"code_review"},
             "argument":{"name":"framework","value":"fla"},
             "context":{"arguments":{"language":"python"}}}
            """,
            CompleteParams.class);
    assertThat(p.ref()).isEqualTo(PromptReference.of("code_review"));
    assertThat(p.contextArguments()).containsExactly(java.util.Map.entry("language", "python"));
    assertThat(MetaKeys.clientInfo(p.meta()))
        .isEqualTo(Implementation.of("ExampleClient", "1.0.0"));
  }

  @Test
  void resourceReferenceWithoutContextRoundTrips() {
    CompleteParams p =
        assertRoundTrip(
            """
            {"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"src/"}}
            """,
            CompleteParams.class);
    assertThat(p.ref()).isInstanceOf(ResourceTemplateReference.class);
    assertThat(p.context()).isNull();
    assertThat(p.contextArguments()).isEmpty();
  }

  @Test
  void unknownReferenceTypeIsInvalidParams() {
    assertThatThrownBy(() ->
            decode(
                """
                {"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":"b"}}
                """,
                CompleteParams.class))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  @Test
  void completeResultRoundTrips() {
    CompleteResult r =
        assertRoundTrip(
            """
            {"resultType":"complete","completion":{"values":["python","pytorch","pyside"],"total":10,"hasMore":true}}
            """,
            CompleteResult.class,
            "resultType");
    assertThat(r.completion().total()).isEqualTo(10L);
    assertRoundTrip("{\"completion\":{\"values\":[\"flask\"]}}", CompleteResult.class);
  }

  @Test
  void moreThanAHundredValuesAreRefused() {
    List<String> many = IntStream.range(0, 101).mapToObj(Integer::toString).toList();
    assertThatThrownBy(() -> new CompleteResult.Completion(many, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() ->
            decode(
                "{\"completion\":{\"values\":" + McpJson.toTree(many) + "}}", CompleteResult.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void factoryTruncatesToAHundredAndReportsTheRest() {
    List<String> many = IntStream.range(0, 250).mapToObj(Integer::toString).toList();
    CompleteResult r = CompleteResult.of(many);
    assertThat(r.completion().values()).hasSize(100).startsWith("0", "1");
    assertThat(r.completion().total()).isEqualTo(250L);
    assertThat(r.completion().hasMore()).isTrue();
    assertSameJson(CompleteResult.empty(), "{\"completion\":{\"values\":[]}}");
  }
}
