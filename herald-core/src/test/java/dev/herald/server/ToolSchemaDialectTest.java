package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ToolSchemaDialectTest {

  @Test
  void argumentsAnnotatedWithXMcpHeaderAreValidatedAsUsualAndTheAnnotationConstrainsNothing() {
    ToolSchema schema =
        ToolSchema.compile(
            Json.parse(
                "{'type':'object','properties':{'region':{'type':'string','x-mcp-header':'Region'}},"
                    + "'required':['region']}"),
            "input schema of tool t");

    assertThat(schema.check(Json.parse("{'region':'eu-west'}"))).isEmpty();
    assertThat(schema.check(Json.parse("{'region':7}"))).get().asString().contains("$.region");
    assertThat(schema.check(Json.parse("{}"))).get().asString().contains("region");
  }

  @Test
  void aSchemaNamingAnotherDialectIsStillValidatedByThatDialect() {
    // draft-07's "dependencies" is a validating keyword there and unknown in 2020-12.
    ToolSchema schema =
        ToolSchema.compile(
            Json.parse(
                "{'$schema':'http://json-schema.org/draft-07/schema#','type':'object',"
                    + "'dependencies':{'a':['b']}}"),
            "input schema of tool t");

    assertThat(schema.check(Json.parse("{'a':1,'b':2}"))).isEmpty();
    assertThat(schema.check(Json.parse("{'a':1}"))).isPresent();
  }
}
