package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpTool;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.McpJson;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code @McpParam}'s schema keywords ({@code minimum}, {@code maximum}, their exclusive forms,
 * {@code minLength}, {@code maxLength}, {@code pattern}, {@code allowedValues}, {@code
 * defaultValue}, {@code header}, {@code schema}) and {@code @McpTool}'s {@code inputSchema} and
 * {@code taskStart}: what they list, that the listed schema is enforced, and that each one used
 * wrongly fails registration naming the method, the argument and the reason.
 */
class AnnotatedSchemaKeywordsTest {
  private static AbstractThrowableAssert<?, ? extends Throwable> registering(Object bean) {
    return assertThatThrownBy(() -> McpServer.builder().annotated(bean))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(bean.getClass().getName() + ".run: ");
  }

  private static Tool listed(Object bean) throws Exception {
    McpServer server = McpServer.builder().annotated(bean).build();
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    try (McpClient client = McpClient.builder().connect(pair.client())) {
      return client.tools().getFirst();
    }
  }

  private static JsonNode json(String text) {
    return McpJson.mapper().readTree(text);
  }

  public static final class Bounded {
    @McpTool
    public String run(
        @McpParam(minimum = 0, maximum = 3600) double seconds,
        @McpParam(exclusiveMinimum = 0.5, exclusiveMaximum = 10) Optional<Double> ratio,
        @McpParam(minimum = 1, maximum = 100) int count,
        @McpParam(minLength = 1, maxLength = 8, pattern = "^[a-z]+$") Optional<String> code,
        @McpParam(
                allowedValues = {"eu", "us"},
                header = "Region",
                defaultValue = "\"eu\"")
            Optional<String> region,
        @McpParam(schema = "{\"type\":\"string\",\"format\":\"email\"}", description = "Mail")
            Optional<String> mail) {
      return "ok";
    }
  }

  @Test
  void keywordAttributesAppearInTheListedSchema() throws Exception {
    assertThat(listed(new Bounded()).inputSchema().get("properties"))
        .isEqualTo(
            json(
                """
                {"seconds":{"type":"number","minimum":0,"maximum":3600},
                 "ratio":{"type":"number","exclusiveMinimum":0.5,"exclusiveMaximum":10},
                 "count":{"type":"integer","minimum":1,"maximum":100},
                 "code":{"type":"string","minLength":1,"maxLength":8,"pattern":"^[a-z]+$"},
                 "region":{"type":"string","enum":["eu","us"],"x-mcp-header":"Region",
                           "default":"eu"},
                 "mail":{"type":"string","format":"email","description":"Mail"}}
                """));
  }

  @Test
  void argumentsOutsideTheKeywordsAreRefusedBeforeTheMethodRuns() throws Exception {
    McpServer server = McpServer.builder().annotated(new Bounded()).build();
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    try (McpClient client = McpClient.builder().connect(pair.client())) {
      CallToolResult ok =
          client.callTool("run", McpJson.object().put("seconds", 1).put("count", 2));
      assertThat(ok.failed()).isFalse();
      for (String bad :
          new String[] {
            "{\"seconds\":3601,\"count\":2}",
            "{\"seconds\":1,\"count\":0}",
            "{\"seconds\":1,\"count\":2,\"ratio\":0.5}",
            "{\"seconds\":1,\"count\":2,\"code\":\"ABC\"}",
            "{\"seconds\":1,\"count\":2,\"code\":\"abcdefghi\"}",
            "{\"seconds\":1,\"count\":2,\"region\":\"asia\"}",
          }) {
        CallToolResult r =
            client.callTool("run", (tools.jackson.databind.node.ObjectNode) json(bad));
        assertThat(r.failed()).as(bad).isTrue();
        assertThat(((ContentBlock.Text) r.content().getFirst()).text())
            .as(bad)
            .startsWith("Invalid arguments for tool run");
      }
    }
  }

  public static final class MinimumOnAString {
    @McpTool
    public String run(@McpParam(minimum = 1) String name) {
      return name;
    }
  }

  @Test
  void aMinimumOnAStringIsRefused() {
    registering(new MinimumOnAString())
        .hasMessageContaining(
            "name: minimum applies to a number argument, not to one of type string");
  }

  public static final class MaximumBeyondInt {
    @McpTool
    public String run(@McpParam(maximum = 1e12) int count) {
      return "x";
    }
  }

  @Test
  void aMaximumBeyondWhatTheTypeHoldsIsRefused() {
    registering(new MaximumBeyondInt())
        .hasMessageContaining("count: maximum 1000000000000 is beyond what the parameter's type");
  }

  public static final class EmptyExclusiveRange {
    @McpTool
    public String run(@McpParam(exclusiveMinimum = 5, maximum = 5) double x) {
      return "x";
    }
  }

  @Test
  void anExclusiveMinimumThatLeavesNoValueIsRefused() {
    registering(new EmptyExclusiveRange()).hasMessageContaining("x: its bounds leave no value");
  }

  public static final class InfiniteExclusiveMaximum {
    @McpTool
    public String run(@McpParam(exclusiveMaximum = Double.POSITIVE_INFINITY) double x) {
      return "x";
    }
  }

  @Test
  void anInfiniteExclusiveMaximumIsRefused() {
    registering(new InfiniteExclusiveMaximum())
        .hasMessageContaining("x: exclusiveMaximum must be finite");
  }

  public static final class MinLengthOnANumber {
    @McpTool
    public String run(@McpParam(minLength = 2) long n) {
      return "x";
    }
  }

  @Test
  void aMinLengthOnANumberIsRefused() {
    registering(new MinLengthOnANumber())
        .hasMessageContaining(
            "n: minLength applies to a string argument, not to one of type integer");
  }

  public static final class MaxLengthBelowMinLength {
    @McpTool
    public String run(@McpParam(minLength = 5, maxLength = 2) String s) {
      return s;
    }
  }

  @Test
  void aMaxLengthBelowTheMinLengthIsRefused() {
    registering(new MaxLengthBelowMinLength())
        .hasMessageContaining("s: minLength 5 is above maxLength 2");
  }

  public static final class BrokenPattern {
    @McpTool
    public String run(@McpParam(pattern = "[a-") String s) {
      return s;
    }
  }

  @Test
  void aPatternThatIsNoRegularExpressionIsRefused() {
    registering(new BrokenPattern()).hasMessageContaining("s: pattern is not a regular expression");
  }

  public enum Colour {
    RED,
    GREEN
  }

  public static final class AllowedValuesOnAnEnum {
    @McpTool
    public String run(@McpParam(allowedValues = {"RED"}) Colour c) {
      return c.name();
    }
  }

  public static final class AllowedValuesTwice {
    @McpTool
    public String run(@McpParam(allowedValues = {"a", "a"}) String s) {
      return s;
    }
  }

  @Test
  void allowedValuesOnAnEnumOrListingAValueTwiceAreRefused() {
    registering(new AllowedValuesOnAnEnum())
        .hasMessageContaining("c: allowedValues on an enum argument");
    registering(new AllowedValuesTwice())
        .hasMessageContaining("s: allowedValues lists \"a\" twice");
  }

  public static final class DefaultNotJson {
    @McpTool
    public String run(@McpParam(defaultValue = "info") Optional<String> level) {
      return "x";
    }
  }

  public static final class DefaultOutOfBounds {
    @McpTool
    public String run(@McpParam(minimum = 1, defaultValue = "0") Optional<Long> count) {
      return "x";
    }
  }

  @Test
  void aDefaultThatIsNoJsonOrBreaksTheSchemaIsRefused() {
    registering(new DefaultNotJson()).hasMessageContaining("level: defaultValue is not JSON");
    registering(new DefaultOutOfBounds())
        .hasMessageContaining("count: defaultValue 0 does not conform to the argument's schema");
  }

  public static final class HeaderNoToken {
    @McpTool
    public String run(@McpParam(header = "Bad Name") String s) {
      return s;
    }
  }

  public static final class HeaderOnANumber {
    @McpTool
    public String run(@McpParam(header = "Ratio") double d) {
      return "x";
    }
  }

  public static final class HeaderTwice {
    @McpTool
    public String run(
        @McpParam(header = "Region") String a, @McpParam(header = "region") String b) {
      return a + b;
    }
  }

  @Test
  void aHeaderThatIsNoTokenIsOnANumberOrIsUsedTwiceIsRefused() {
    registering(new HeaderNoToken())
        .hasMessageContaining("s: header \"Bad Name\" is not an HTTP token");
    registering(new HeaderOnANumber())
        .hasMessageContaining("d: header applies to a string, integer or boolean argument");
    registering(new HeaderTwice())
        .hasMessageContaining("x-mcp-header \"region\" is used more than once");
  }

  public record TwoHeaders(
      @McpParam(header = "Region") String a, @McpParam(header = "REGION") String b) {}

  @Test
  void aTypedToolsRecordWithOneHeaderTwiceIsRefused() {
    assertThatThrownBy(() ->
            McpServer.builder()
                .tool("t", "T", TwoHeaders.class, (args, context) -> CallToolResult.text("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tool t: x-mcp-header \"REGION\" is used more than once");
  }

  public static final class SchemaNotASchema {
    @McpTool
    public String run(@McpParam(schema = "{\"type\":\"strng\"}") String s) {
      return s;
    }
  }

  public static final class SchemaBesideAKeyword {
    @McpTool
    public String run(@McpParam(schema = "{\"type\":\"string\"}", minLength = 1) String s) {
      return s;
    }
  }

  @Test
  void aParameterSchemaThatIsNoJsonSchemaOrHasKeywordsBesideItIsRefused() {
    registering(new SchemaNotASchema())
        .hasMessageContaining("s: @McpParam(schema) is not a valid JSON Schema: ")
        .hasMessageContaining("$.type: does not have a value in the enumeration");
    registering(new SchemaBesideAKeyword())
        .hasMessageContaining("s: @McpParam(schema) replaces the derived schema");
  }

  public static final class InputSchemaNotJson {
    @McpTool(inputSchema = "{type: object}")
    public String run() {
      return "x";
    }
  }

  public static final class InputSchemaNotObjectType {
    @McpTool(inputSchema = "{\"type\":\"array\"}")
    public String run() {
      return "x";
    }
  }

  public static final class InputSchemaInvalid {
    @McpTool(inputSchema = "{\"type\":\"object\",\"required\":[1]}")
    public String run() {
      return "x";
    }
  }

  public static final class InputSchemaDanglingRef {
    @McpTool(
        inputSchema = "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/missing\"}}}")
    public String run(@Nullable String a) {
      return "x";
    }
  }

  public static final class InputSchemaMissesAParameter {
    @McpTool(inputSchema = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}")
    public String run(Optional<String> a, Optional<String> b) {
      return "x";
    }
  }

  public static final class InputSchemaLeavesARequiredParameterOptional {
    @McpTool(inputSchema = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}")
    public String run(String a) {
      return a;
    }
  }

  public static final class InputSchemaAndParameterKeywords {
    @McpTool(
        inputSchema =
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"]}")
    public String run(@McpParam(description = "A") String a) {
      return a;
    }
  }

  public static final class InputSchemaAndUnknownArguments {
    @McpTool(inputSchema = "{\"type\":\"object\"}", allowUnknownArguments = true)
    public String run() {
      return "x";
    }
  }

  @Test
  void anInputSchemaThatIsNoValidObjectSchemaIsRefusedWithTheReason() {
    registering(new InputSchemaNotJson()).hasMessageContaining("inputSchema is not JSON");
    registering(new InputSchemaNotObjectType())
        .hasMessageContaining("inputSchema must say \"type\": \"object\"");
    registering(new InputSchemaInvalid())
        .hasMessageContaining("inputSchema is not a valid JSON Schema: ")
        .hasMessageContaining("$.required[0]: integer found, string expected");
    registering(new InputSchemaDanglingRef())
        .hasMessageContaining("inputSchema is not a valid JSON Schema");
  }

  @Test
  void anInputSchemaMustNameEveryParameterAndRequireWhatJavaRequires() {
    registering(new InputSchemaMissesAParameter())
        .hasMessageContaining("parameter b is not a property of inputSchema");
    registering(new InputSchemaLeavesARequiredParameterOptional())
        .hasMessageContaining("parameter a may be absent (inputSchema does not require it)");
    registering(new InputSchemaAndParameterKeywords())
        .hasMessageContaining("parameter a: say its schema in inputSchema");
    registering(new InputSchemaAndUnknownArguments())
        .hasMessageContaining("allowUnknownArguments has no effect beside inputSchema");
  }

  public static final class TaskStartWithoutTasks {
    @McpTool(taskStart = TaskStart.WHEN_HANDLER_STARTS_IT)
    public String run() {
      return "x";
    }
  }

  @Test
  void aTaskStartOnAToolThatNeverRunsAsATaskIsRefused() {
    registering(new TaskStartWithoutTasks())
        .hasMessageContaining(
            "taskStart WHEN_HANDLER_STARTS_IT needs taskSupport OPTIONAL or REQUIRED");
  }

  public static final class Explicit {
    public record Address(@Nullable String city) {}

    @McpTool(
        inputSchema =
            """
            {"type":"object","$defs":{"a":{"type":"object","properties":{"city":{"type":"string"}}}},
             "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/a"}},
             "required":["name"],"additionalProperties":false}
            """,
        taskSupport = TaskSupport.OPTIONAL,
        taskStart = TaskStart.WHEN_HANDLER_STARTS_IT)
    public String run(String name, Optional<Address> address, RequestContext context) {
      return name + " in " + address.map(Address::city).orElse("?");
    }
  }

  @Test
  void anExplicitInputSchemaIsListedAsGivenAndItsParametersAreBoundByName() throws Exception {
    Tool tool = listed(new Explicit());
    assertThat(tool.inputSchema().get("$defs")).isNotNull();
    assertThat(tool.inputSchema().path("properties").path("address").path("$ref").asString())
        .isEqualTo("#/$defs/a");
    McpServer server = McpServer.builder().annotated(new Explicit()).build();
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    try (McpClient client = McpClient.builder().connect(pair.client())) {
      CallToolResult r =
          client.callTool(
              "run",
              (tools.jackson.databind.node.ObjectNode)
                  json("{\"name\":\"Ada\",\"address\":{\"city\":\"Oslo\"}}"));
      assertThat(((ContentBlock.Text) r.content().getFirst()).text()).isEqualTo("Ada in Oslo");
      CallToolResult bad =
          client.callTool(
              "run", (tools.jackson.databind.node.ObjectNode) json("{\"name\":\"Ada\",\"x\":1}"));
      assertThat(bad.failed()).isTrue();
    }
  }
}
