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
 * {@code inputRequests} of an {@link InputRequiredResult} (2026-07-28 {@code InputRequests}): a map
 * from server-chosen keys to {@link InputRequest}s, kept as the JSON object so entries with
 * methods Herald does not know survive; {@link #get(String)} gives the typed view.
 */
public record InputRequests(ObjectNode requests) {

  public InputRequests {
    java.util.Objects.requireNonNull(requests, "requests");
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static InputRequests fromJson(ObjectNode requests) {
    return new InputRequests(requests);
  }

  @JsonValue
  @Override
  public ObjectNode requests() {
    return requests;
  }

  /** Builds the map from typed requests, in iteration order. */
  public static InputRequests of(Map<String, ? extends InputRequest> requests) {
    ObjectNode tree = McpJson.object();
    requests.forEach((k, v) -> tree.set(k, McpJson.mapper().valueToTree(v)));
    return new InputRequests(tree);
  }

  /** A copy with one more entry. */
  public InputRequests with(String key, InputRequest request) {
    ObjectNode tree = requests.deepCopy();
    tree.set(key, McpJson.toTree(request));
    return new InputRequests(tree);
  }

  /** The keys, in wire order. */
  public Set<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    requests.propertyNames().forEach(keys::add);
    return Collections.unmodifiableSet(keys);
  }

  public int size() {
    return requests.size();
  }

  /** The {@code method} of an entry, or {@code null} when there is no such entry. */
  public @Nullable String method(String key) {
    JsonNode entry = requests.get(key);
    JsonNode m = entry == null ? null : entry.get("method");
    return m != null && m.isString() ? m.stringValue() : null;
  }

  /**
   * The typed entry, or {@code null} when there is no such key.
   *
   * @throws McpException with {@link ErrorCodes#INTERNAL_ERROR} when the entry is malformed or its
   *     method unknown (input requests arrive in results, so a bad one is the peer's fault)
   */
  public @Nullable InputRequest get(String key) {
    JsonNode entry = requests.get(key);
    return entry == null ? null : McpJson.resultFromTree(entry, InputRequest.class);
  }
}
