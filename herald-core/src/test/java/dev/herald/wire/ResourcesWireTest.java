package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Golden JSON from the 2025-11-25 server/resources page and the 2026-07-28 schema examples. */
class ResourcesWireTest {

  @Test
  void resourceWithAnnotationsRoundTrips() {
    Resource r =
        assertRoundTrip(
            """
            {"uri":"file:///project/README.md","name":"README.md","title":"Project Documentation",
             "mimeType":"text/markdown",
             "annotations":{"audience":["user"],"priority":0.8,"lastModified":"2025-01-12T15:00:58Z"}}
            """,
            Resource.class);
    assertThat(r.annotations().priority()).isEqualTo(0.8);
    assertThat(r.size()).isNull();
    assertThat(r.displayName()).isEqualTo("Project Documentation");
  }

  @Test
  void absentOptionalResourceFieldsStayAbsent() {
    JsonNode out =
        McpJson.toTree(
            decode(
                """
                {"uri":"file:///a","name":"a"}
                """,
                Resource.class));
    assertThat(out.propertyNames()).containsExactlyInAnyOrder("uri", "name");
  }

  @Test
  void resourceWithoutUriIsInvalidParams() {
    assertThatThrownBy(() -> decode("{\"name\":\"a\"}", Resource.class))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  @Test
  void legacyListResourcesResultKeepsCursorAndMetaWithoutCacheHints() {
    ListResourcesResult r =
        assertRoundTrip(
            """
            {"resources":[{"uri":"file:///project/src/main.rs","name":"main.rs","title":"Rust Software Application Main File",
              "description":"Primary application entry point","mimeType":"text/x-rust","size":1024,
              "icons":[{"src":"https://example.com/rust-file-icon.png","mimeType":"image/png","sizes":["48x48"]}]}],
             "nextCursor":"next-page-cursor",
             "_meta":{"vendor.example/trace":{"depth":[1,{"x":null}]}}}
            """,
            ListResourcesResult.class);
    assertThat(r.resources().get(0).size()).isEqualTo(1024L);
    assertThat(r.ttlMs()).isNull();
    assertThat(r.cacheScope()).isNull();
    assertThat(r.effectiveTtlMs()).isZero();
    assertThat(r.meta().get("vendor.example/trace").get("depth").get(1).has("x")).isTrue();
  }

  @Test
  void modernListResourcesResultKeepsCacheHints() {
    ListResourcesResult r =
        assertRoundTrip(
            """
            {"resultType":"complete",
             "resources":[{"uri":"file:///project/src/main.rs","name":"main.rs","mimeType":"text/x-rust"}],
             "nextCursor":"eyJwYWdlIjogM30=","ttlMs":600000,"cacheScope":"private"}
            """,
            ListResourcesResult.class,
            "resultType");
    assertThat(r.ttlMs()).isEqualTo(600_000L);
    assertThat(r.cacheScope()).isEqualTo(CacheScope.PRIVATE);
    assertThat(r.effectiveTtlMs()).isEqualTo(600_000L);
  }

  @Test
  void negativeTtlIsTreatedAsZero() {
    ListResourcesResult r =
        decode(
            "{\"resources\":[],\"ttlMs\":-5,\"cacheScope\":\"public\"}", ListResourcesResult.class);
    assertThat(r.effectiveTtlMs()).isZero();
    assertThat(r.cacheScope()).isEqualTo(CacheScope.PUBLIC);
  }

  @Test
  void unknownCacheScopeIsRefused() {
    assertThatThrownBy(
            () -> decode("{\"resources\":[],\"cacheScope\":\"shared\"}", ListResourcesResult.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void listResourceTemplatesResultRoundTrips() {
    ListResourceTemplatesResult r =
        assertRoundTrip(
            """
            {"resultType":"complete",
             "resourceTemplates":[{"uriTemplate":"file:///{path}","name":"Project Files","title":"📁 Project Files",
               "description":"Access files in the project directory","mimeType":"application/octet-stream",
               "icons":[{"src":"https://example.com/folder-icon.png","mimeType":"image/png","sizes":["48x48"]}]}],
             "nextCursor":"next-page-cursor","ttlMs":3600000,"cacheScope":"public"}
            """,
            ListResourceTemplatesResult.class,
            "resultType");
    assertThat(r.resourceTemplates().get(0).uriTemplate()).isEqualTo("file:///{path}");
  }

  @Test
  void readResourceResultDispatchesTextAndBlobContents() {
    ReadResourceResult r =
        assertRoundTrip(
            """
            {"contents":[
              {"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {\\n    println!(\\"Hello world!\\");\\n}"},
              {"uri":"file:///example.png","mimeType":"image/png","blob":"iVBORw0KGgo=","_meta":{"k":1}}]}
            """,
            ReadResourceResult.class);
    assertThat(r.contents())
        .hasExactlyElementsOfTypes(ResourceContents.Text.class, ResourceContents.Blob.class);
    assertThat(((ResourceContents.Blob) r.contents().get(1)).meta().get("k").intValue())
        .isEqualTo(1);
  }

  @Test
  void readResourceParamsCarryRetryFieldsOnlyWhenPresent() {
    ReadResourceParams first =
        assertRoundTrip(
            """
            {"uri":"file:///project/src/main.rs",
             "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}
            """,
            ReadResourceParams.class);
    assertThat(first.inputResponses()).isNull();
    assertThat(MetaKeys.protocolVersion(first.meta())).isEqualTo("2026-07-28");

    ReadResourceParams retry =
        assertRoundTrip(
            """
            {"uri":"file:///x","inputResponses":{"roots":{"roots":[{"uri":"file:///home"}]}},"requestState":"abc"}
            """,
            ReadResourceParams.class);
    assertThat(retry.inputResponses().listRoots("roots").roots())
        .extracting(Root::uri)
        .containsExactly("file:///home");
    assertThat(retry.requestState()).isEqualTo("abc");
  }

  @Test
  void subscribeUnsubscribeAndUpdatedParamsRoundTrip() {
    assertRoundTrip("{\"uri\":\"file:///project/src/main.rs\"}", SubscribeParams.class);
    assertRoundTrip(
        "{\"uri\":\"file:///project/src/main.rs\",\"_meta\":{}}", UnsubscribeParams.class);
    ResourceUpdatedParams legacy =
        assertRoundTrip("{\"uri\":\"file:///project/src/main.rs\"}", ResourceUpdatedParams.class);
    assertThat(legacy.subscriptionId()).isNull();
  }

  @Test
  void resourceUpdatedKeepsSubscriptionIdType() {
    ResourceUpdatedParams numeric =
        assertRoundTrip(
            """
            {"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":1}}
            """,
            ResourceUpdatedParams.class);
    ResourceUpdatedParams text =
        assertRoundTrip(
            """
            {"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":"1"}}
            """,
            ResourceUpdatedParams.class);
    assertThat(numeric.subscriptionId()).isEqualTo(RequestId.of(1));
    assertThat(text.subscriptionId()).isEqualTo(RequestId.of("1"));
    assertThat(numeric.subscriptionId()).isNotEqualTo(text.subscriptionId());
  }

  @Test
  void factoriesWriteOnlyWhatWasGiven() {
    assertSameJson(
        ReadResourceResult.of(ResourceContents.text("file:///a", "text/plain", "hi")),
        "{\"contents\":[{\"uri\":\"file:///a\",\"mimeType\":\"text/plain\",\"text\":\"hi\"}]}");
    assertSameJson(
        ListResourcesResult.of(java.util.List.of(Resource.of("file:///a", "a", null)), null),
        "{\"resources\":[{\"uri\":\"file:///a\",\"name\":\"a\"}]}");
  }
}
