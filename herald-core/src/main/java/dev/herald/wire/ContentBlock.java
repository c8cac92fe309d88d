package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A piece of content in a tool result, prompt message or sampling message, by {@code type}. Text,
 * image and audio blocks are also {@link SamplingContent}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", visible = false)
@JsonSubTypes({
  @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
  @JsonSubTypes.Type(value = ContentBlock.Image.class, name = "image"),
  @JsonSubTypes.Type(value = ContentBlock.Audio.class, name = "audio"),
  @JsonSubTypes.Type(value = ContentBlock.ResourceLink.class, name = "resource_link"),
  @JsonSubTypes.Type(value = ContentBlock.EmbeddedResource.class, name = "resource")
})
public sealed interface ContentBlock {

  /** {@code type: "text"}. */
  record Text(
      String text,
      @Nullable Annotations annotations,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ContentBlock, SamplingContent {
    public Text {
      java.util.Objects.requireNonNull(text, "text");
    }
  }

  /** {@code type: "image"}: base64 {@code data}. */
  record Image(
      String data,
      String mimeType,
      @Nullable Annotations annotations,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ContentBlock, SamplingContent {}

  /** {@code type: "audio"}: base64 {@code data}. */
  record Audio(
      String data,
      String mimeType,
      @Nullable Annotations annotations,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ContentBlock, SamplingContent {}

  /** {@code type: "resource_link"}: a link to a resource the client may read. */
  record ResourceLink(
      String uri,
      String name,
      @Nullable String title,
      @Nullable String description,
      @Nullable String mimeType,
      @Nullable Long size,
      java.util.@Nullable List<Icon> icons,
      @Nullable Annotations annotations,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ContentBlock {}

  /** {@code type: "resource"}: an embedded resource. */
  record EmbeddedResource(
      ResourceContents resource,
      @Nullable Annotations annotations,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements ContentBlock {}

  static ContentBlock text(String text) {
    return new Text(text, null, null);
  }

  static ContentBlock image(String base64, String mimeType) {
    return new Image(base64, mimeType, null, null);
  }

  static ContentBlock audio(String base64, String mimeType) {
    return new Audio(base64, mimeType, null, null);
  }

  static ContentBlock resource(ResourceContents contents) {
    return new EmbeddedResource(contents, null, null);
  }
}
