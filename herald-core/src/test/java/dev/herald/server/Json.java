package dev.herald.server;

import dev.herald.wire.McpJson;
import tools.jackson.databind.node.ObjectNode;

/** Small JSON helpers for tests. */
final class Json {
  private Json() {}

  static ObjectNode parse(String json) {
    return (ObjectNode) McpJson.mapper().readTree(json.replace('\'', '"'));
  }
}
