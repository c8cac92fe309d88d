package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.Tool;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ToolValidationTest {
  private PipeLink link;

  @BeforeEach
  void setUp() throws InterruptedException {
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("add")
                    .inputSchema(
                        Json.parse(
                            "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer','minimum':0}},'required':['a','b']}"))
                    .build(),
                call ->
                    CallToolResult.text(
                        String.valueOf(call.integer("a", 0) + call.integer("b", 0))))
            .tool(
                Tool.builder("stats")
                    .outputSchema(
                        Json.parse(
                            "{'type':'object','properties':{'count':{'type':'integer'}},'required':['count']}"))
                    .build(),
                call ->
                    switch (call.string("mode", "good")) {
                      case "good" ->
                          new CallToolResult(List.of(), Json.parse("{'count':3}"), null, null);
                      case "bad" ->
                          new CallToolResult(
                              List.of(), Json.parse("{'count':'three'}"), null, null);
                      case "failed" -> CallToolResult.error("it broke");
                      default -> CallToolResult.text("no structured content");
                    })
            .build();
    link = PipeLink.connect(server);
  }

  @AfterEach
  void tearDown() {
    link.close();
  }

  @Test
  void argumentsThatBreakTheSchemaAreAnIsErrorResultNamingThePathAndTheSessionStaysUsable()
      throws Exception {
    CallToolResult bad = link.client.callTool("add", Json.parse("{'a':'one','b':2}"));

    assertThat(bad.failed()).isTrue();
    assertThat(bad.firstText())
        .startsWith("Invalid arguments for tool add: ")
        .contains("$.a")
        .contains("integer");

    CallToolResult good = link.client.callTool("add", Json.parse("{'a':1,'b':2}"));
    assertThat(good.failed()).isFalse();
    assertThat(good.firstText()).isEqualTo("3");
  }

  @Test
  void everyFailingPathIsNamed() throws Exception {
    CallToolResult bad = link.client.callTool("add", Json.parse("{'a':1.5,'b':-1}"));

    assertThat(bad.failed()).isTrue();
    assertThat(bad.firstText()).contains("$.a").contains("$.b");
  }

  @Test
  void missingRequiredArgumentsAreNamed() throws Exception {
    CallToolResult bad = link.client.callTool("add", null);

    assertThat(bad.failed()).isTrue();
    assertThat(bad.firstText()).contains("a").contains("b").contains("required");
  }

  @Test
  void anUnknownToolIsAJsonRpcInvalidParamsError() {
    assertThatThrownBy(() -> link.client.callTool("nope", null))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS))
        .hasMessageContaining("Unknown tool: nope");
  }

  @Test
  void structuredContentThatBreaksTheOutputSchemaIsAnIsErrorResult() throws Exception {
    CallToolResult r = link.client.callTool("stats", Json.parse("{'mode':'bad'}"));

    assertThat(r.failed()).isTrue();
    assertThat(r.firstText())
        .startsWith("Tool stats produced invalid output: ")
        .contains("$.count");
  }

  @Test
  void aToolWithAnOutputSchemaMustReturnStructuredContent() throws Exception {
    CallToolResult r = link.client.callTool("stats", Json.parse("{'mode':'none'}"));

    assertThat(r.failed()).isTrue();
    assertThat(r.firstText()).contains("produced invalid output").contains("structuredContent");
  }

  @Test
  void conformingStructuredContentAndToolErrorsPassUntouched() throws Exception {
    CallToolResult good = link.client.callTool("stats", Json.parse("{'mode':'good'}"));
    CallToolResult failed = link.client.callTool("stats", Json.parse("{'mode':'failed'}"));

    assertThat(good.failed()).isFalse();
    assertThat(good.structuredContent()).isEqualTo(Json.parse("{'count':3}"));
    assertThat(failed.failed()).isTrue();
    assertThat(failed.firstText()).isEqualTo("it broke");
  }

  @Test
  void aSchemaWithAnUnresolvableRefIsRefusedAtRegistration() {
    Tool broken =
        Tool.builder("broken")
            .inputSchema(
                Json.parse("{'type':'object','properties':{'x':{'$ref':'#/$defs/missing'}}}"))
            .build();

    assertThatThrownBy(() -> McpServer.builder().tool(broken, call -> CallToolResult.text("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tool broken inputSchema");
  }

  @Test
  void aRemoteRefIsNeverFetched() {
    Tool remote =
        Tool.builder("remote")
            .inputSchema(
                Json.parse(
                    "{'type':'object','properties':{'x':{'$ref':'http://127.0.0.1:9/schema.json'}}}"))
            .build();

    assertThatThrownBy(() -> McpServer.builder().tool(remote, call -> CallToolResult.text("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tool remote inputSchema");
  }
}
