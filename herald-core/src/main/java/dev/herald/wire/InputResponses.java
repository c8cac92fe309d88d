package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code inputResponses} of a retried request (2026-07-28 {@code InputResponses}): the client's
 * answers keyed like the {@link InputRequests} they fulfil. Values carry no discriminator, so the
 * map is kept as the JSON object and read with the typed accessor that matches the request.
 */
public record InputResponses(ObjectNode responses) {

  public InputResponses {
    java.util.Objects.requireNonNull(responses, "responses");
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static InputResponses fromJson(ObjectNode responses) {
    return new InputResponses(responses);
  }

  @JsonValue
  @Override
  public ObjectNode responses() {
    return responses;
  }

  /** Builds the map from {@link ElicitResult}, {@link CreateMessageResult} or {@link ListRootsResult} values. */
  public static InputResponses of(Map<String, ?> responses) {
    ObjectNode tree = McpJson.object();
    responses.forEach((k, v) -> tree.set(k, McpJson.toTree(v)));
    return new InputResponses(tree);
  }

  /** A copy with one more entry. */
  public InputResponses with(String key, Object response) {
    ObjectNode tree = responses.deepCopy();
    tree.set(key, McpJson.toTree(response));
    return new InputResponses(tree);
  }

  /** The keys, in wire order. */
  public Set<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    responses.propertyNames().forEach(keys::add);
    return Collections.unmodifiableSet(keys);
  }

  public boolean has(String key) {
    return responses.has(key);
  }

  /**
   * The answer to an {@code elicitation/create} input request, or {@code null} when absent.
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when the entry is malformed
   */
  public @Nullable ElicitResult elicit(String key) {
    return get(key, ElicitResult.class);
  }

  /** The answer to a {@code sampling/createMessage} input request, or {@code null} when absent. */
  public @Nullable CreateMessageResult createMessage(String key) {
    return get(key, CreateMessageResult.class);
  }

  /** The answer to a {@code roots/list} input request, or {@code null} when absent. */
  public @Nullable ListRootsResult listRoots(String key) {
    return get(key, ListRootsResult.class);
  }

  /**
   * An entry as the given type, or {@code null} when absent.
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when the entry does not fit
   */
  public <T> @Nullable T get(String key, Class<T> type) {
    JsonNode entry = responses.get(key);
    return entry == null ? null : McpJson.fromTree(entry, type);
  }
}
