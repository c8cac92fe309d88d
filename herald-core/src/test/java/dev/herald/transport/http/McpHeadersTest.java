package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code x-mcp-header} rules and the value encoding of MCP 2026-07-28
 * basic/transports/streamable-http §Custom Headers from Tool Parameters and §Value Encoding.
 */
class McpHeadersTest {

  private static Tool tool(String inputSchema) {
    return Tool.builder("t")
        .inputSchema((ObjectNode) McpJson.mapper().readTree(inputSchema))
        .build();
  }

  private static String prop(String name, String schema) {
    return "{\"type\":\"object\",\"properties\":{\"" + name + "\":" + schema + "}}";
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"type\":\"object\"}",
        "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
            + "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"},\"b\":{\"type\":\"boolean\",\"x-mcp-header\":\"B\"}}}",
        "{\"type\":\"object\",\"properties\":{\"outer\":{\"type\":\"object\",\"properties\":"
            + "{\"inner\":{\"type\":\"string\",\"x-mcp-header\":\"Inner\"}}}}}",
        "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":[\"string\",\"null\"],\"x-mcp-header\":\"V\"}}}",
        "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"a!#$%&'*+-.^_`|~9\"}}}",
        "{\"type\":\"object\",\"properties\":{\"x-mcp-header\":{\"type\":\"string\"}},"
            + "\"default\":{\"x-mcp-header\":\"data, not an annotation\"}}"
      })
  void aValidOrAbsentAnnotationKeepsTheTool(String schema) {
    assertThat(McpHeaders.invalidToolHeaders(tool(schema))).isEmpty();
    assertThat(McpHeaders.validToolHeaders(tool(schema))).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "empty | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"\"}}}",
        "object | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"object\",\"x-mcp-header\":\"Data\"}}}",
        "array | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"x-mcp-header\":\"Items\"}}}",
        "null | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"null\",\"x-mcp-header\":\"Nil\"}}}",
        "number | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"number\",\"x-mcp-header\":\"Score\"}}}",
        "no type | {\"type\":\"object\",\"properties\":{\"v\":{\"x-mcp-header\":\"V\"}}}",
        "same case twice | {\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},\"b\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}",
        "other case twice | {\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"MyField\"},\"b\":{\"type\":\"string\",\"x-mcp-header\":\"myfield\"}}}",
        "space | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"My Region\"}}}",
        "colon | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"Region:Primary\"}}}",
        "non-ASCII | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"Région\"}}}",
        "control | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"Region\\t1\"}}}",
        "not a string | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":7}}}",
        "under items | {\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"x-mcp-header\":\"I\"}}}}",
        "under oneOf | {\"type\":\"object\",\"oneOf\":[{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"V\"}}}]}",
        "under if | {\"type\":\"object\",\"if\":{\"properties\":{\"v\":{\"type\":\"string\",\"x-mcp-header\":\"V\"}}}}",
        "under $defs | {\"type\":\"object\",\"$defs\":{\"d\":{\"type\":\"string\",\"x-mcp-header\":\"D\"}},\"properties\":{\"v\":{\"$ref\":\"#/$defs/d\"}}}",
        "on the root | {\"type\":\"object\",\"x-mcp-header\":\"Root\"}"
      })
  void anInvalidAnnotationDropsTheTool(String why, String schema) {
    assertThat(McpHeaders.invalidToolHeaders(tool(schema))).as(why).isPresent();
    assertThat(McpHeaders.params(tool(schema).inputSchema())).as(why).isNull();
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      value = {
        "us-west1 | us-west1",
        "us west 1 | us west 1",
        "Hello, 世界 | =?base64?SGVsbG8sIOS4lueVjA==?=",
        "' padded ' | =?base64?IHBhZGRlZCA=?=",
        "=?base64?literal?= | =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
      })
  void valuesAreSentPlainOrInTheBase64Form(String value, String header) {
    assertThat(McpHeaders.encode(value)).isEqualTo(header);
    assertThat(McpHeaders.decode(header)).hasValue(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"line1\nline2", "line1\r\nline2", "\tindented", "a\u0001b", "trailing "})
  void controlCharactersTabsAndEdgeWhitespaceAreBase64(String value) {
    String header = McpHeaders.encode(value);
    assertThat(header).startsWith("=?base64?").endsWith("?=");
    assertThat(McpHeaders.decode(header)).hasValue(value);
  }

  @org.junit.jupiter.api.Test
  void anEncodedValueThatIsNotBase64DoesNotDecode() {
    assertThat(McpHeaders.decode("=?base64?***?=")).isEmpty();
  }
}
