package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Contents of a resource: text or base64 blob, told apart by which field is present. */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({
  @JsonSubTypes.Type(ResourceContents.Text.class),
  @JsonSubTypes.Type(ResourceContents.Blob.class)
})
public sealed interface ResourceContents {
  String uri();

  @Nullable String mimeType();

  /** Text contents. */
  record Text(
      String uri,
      @Nullable String mimeType,
      String text,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ResourceContents {}

  /** Binary contents, base64. */
  record Blob(
      String uri,
      @Nullable String mimeType,
      String blob,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ResourceContents {}

  static ResourceContents text(String uri, @Nullable String mimeType, String text) {
    return new Text(uri, mimeType, text, null);
  }

  static ResourceContents blob(String uri, @Nullable String mimeType, String base64) {
    return new Blob(uri, mimeType, base64, null);
  }
}
