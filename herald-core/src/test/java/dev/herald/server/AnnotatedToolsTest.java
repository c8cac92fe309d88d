package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpTool;
import dev.herald.server.annotation.ToolHint;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.McpException;
import dev.herald.wire.Tool;
import dev.herald.wire.ToolAnnotations;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tools declared with {@link McpTool} on a plain object, called through a real client. */
class AnnotatedToolsTest {
  public enum Unit {
    CELSIUS,
    FAHRENHEIT
  }

  public record Place(@McpParam(description = "City name") String city, @Nullable String country) {}

  /** The same arguments as a record, for the typed-tool comparison. */
  public record ForecastArgs(
      Place place,
      int days,
      Unit unit,
      List<String> fields,
      boolean hourly,
      double threshold,
      Optional<Long> seed,
      @Nullable String note) {}

  public record Forecast(String city, int days, double high) {}

  public record Inner(String name, Optional<Long> seed) {}

  public record Maybe(String name, Optional<Long> seed, @Nullable String note, List<Inner> more) {}

  public static final class Weather {
    final AtomicReference<Object[]> bound = new AtomicReference<>();

    @McpTool(
        description = "Weather forecast",
        title = "Forecast",
        readOnlyHint = ToolHint.TRUE,
        openWorldHint = ToolHint.FALSE)
    public Forecast forecast(
        Place place,
        int days,
        Unit unit,
        List<String> fields,
        boolean hourly,
        double threshold,
        Optional<Long> seed,
        @Nullable String note) {
      bound.set(new Object[] {place, days, unit, fields, hourly, threshold, seed, note});
      return new Forecast(place.city(), days, 21.5);
    }

    @McpTool(description = "Echoes")
    public String echoText(@McpParam(description = "What to say") String text) {
      return text;
    }

    @McpTool
    public List<ContentBlock> twoBlocks(Map<String, Integer> counts) {
      return List.of(ContentBlock.text("a" + counts.size()), ContentBlock.text("b"));
    }

    @McpTool
    public void nothing() {}

    @McpTool
    public Maybe maybe() {
      return new Maybe(
          "a",
          Optional.empty(),
          null,
          List.of(new Inner("b", Optional.of(1L)), new Inner("c", Optional.empty())));
    }

    @McpTool
    public CallToolResult raw() {
      return CallToolResult.text("raw");
    }

    @McpTool
    public String fails(String why) {
      throw new IllegalStateException("exploded: " + why);
    }

    @McpTool
    public String protocolError() {
      throw McpException.invalidParams("Invalid params: no");
    }
  }

  private final Weather weather = new Weather();
  private PipeLink link;

  @BeforeEach
  void setUp() throws InterruptedException {
    McpServer server =
        McpServer.builder()
            .annotated(weather)
            .tool("typed_forecast", "Weather forecast", ForecastArgs.class, (a, c) -> null)
            .build();
    link = PipeLink.connect(server);
  }

  @AfterEach
  void tearDown() {
    link.close();
  }

  private Tool tool(String name) throws InterruptedException {
    return link.client.listTools().stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void anAnnotatedToolListsTheSameInputSchemaAsATypedToolOfTheSameShape() throws Exception {
    Tool annotated = tool("forecast");
    Tool typed = tool("typed_forecast");

    assertThat(annotated.inputSchema()).isEqualTo(typed.inputSchema());
    assertThat(
            annotated
                .inputSchema()
                .at("/properties/place/properties/city/description")
                .stringValue())
        .isEqualTo("City name");
    assertThat(annotated.description()).isEqualTo("Weather forecast");
    assertThat(annotated.title()).isEqualTo("Forecast");
    assertThat(annotated.annotations())
        .isEqualTo(new ToolAnnotations(null, true, null, null, false));
  }

  @Test
  void namesDefaultToSnakeCaseAndDescriptionsComeFromMcpParam() throws Exception {
    Tool echo = tool("echo_text");

    assertThat(echo.inputSchema())
        .isEqualTo(
            Json.parse(
                "{'type':'object','properties':{'text':{'type':'string','description':'What to say'}},"
                    + "'required':['text'],'additionalProperties':false}"));
    assertThat(echo.outputSchema()).isNull();
    assertThat(echo.annotations()).isNull();
  }

  @Test
  void aRecordResultIsStructuredContentWithTheRecordAsOutputSchema() throws Exception {
    Tool forecast = tool("forecast");
    assertThat(forecast.outputSchema())
        .isEqualTo(
            Json.parse(
                "{'type':'object','properties':{'city':{'type':'string'},"
                    + "'days':{'type':'integer','minimum':-2147483648,'maximum':2147483647},"
                    + "'high':{'type':'number'}},'required':['city','days','high'],"
                    + "'additionalProperties':false}"));

    CallToolResult r =
        link.client.callTool(
            "forecast",
            Json.parse(
                "{'place':{'city':'Oslo'},'days':3,'unit':'CELSIUS','fields':['wind'],'hourly':true,'threshold':0.5,'seed':7}"));

    assertThat(r.failed()).isFalse();
    assertThat(r.structuredContent()).isEqualTo(Json.parse("{'city':'Oslo','days':3,'high':21.5}"));
    assertThat(Json.parse(r.firstText())).isEqualTo(r.structuredContent());
    assertThat(weather.bound.get())
        .containsExactly(
            new Place("Oslo", null),
            3,
            Unit.CELSIUS,
            List.of("wind"),
            true,
            0.5,
            Optional.of(7L),
            null);
  }

  @Test
  void absentOptionalArgumentsAreEmptyOrNull() throws Exception {
    link.client.callTool(
        "forecast",
        Json.parse(
            "{'place':{'city':'Oslo','country':'NO'},'days':1,'unit':'FAHRENHEIT','fields':[],'hourly':false,'threshold':1,'note':'n'}"));

    assertThat(weather.bound.get()[0]).isEqualTo(new Place("Oslo", "NO"));
    assertThat(weather.bound.get()[6]).isEqualTo(Optional.empty());
    assertThat(weather.bound.get()[7]).isEqualTo("n");
  }

  @Test
  void argumentsThatDoNotFitAreRejectedBeforeTheMethodRuns() throws Exception {
    CallToolResult r =
        link.client.callTool(
            "forecast",
            Json.parse(
                "{'place':{'city':'Oslo'},'days':'three','unit':'KELVIN','fields':[],'hourly':true,'threshold':1,'extra':1}"));

    assertThat(r.failed()).isTrue();
    assertThat(r.firstText()).contains("$.days").contains("$.unit").contains("extra");
    assertThat(weather.bound.get()).isNull();
  }

  @Test
  void otherReturnTypesBecomeContent() throws Exception {
    assertThat(link.client.callTool("echo_text", Json.parse("{'text':'hi'}")).firstText())
        .isEqualTo("hi");
    assertThat(link.client.callTool("two_blocks", Json.parse("{'counts':{'x':1}}")).content())
        .containsExactly(ContentBlock.text("a1"), ContentBlock.text("b"));
    CallToolResult nothing = link.client.callTool("nothing", null);
    assertThat(nothing.failed()).isFalse();
    assertThat(nothing.content()).isEmpty();
    assertThat(link.client.callTool("raw", null).firstText()).isEqualTo("raw");
  }

  @Test
  void exceptionsBecomeToolErrorsOrJsonRpcErrorsAsForAHandBuiltTool() throws Exception {
    CallToolResult r = link.client.callTool("fails", Json.parse("{'why':'on purpose'}"));
    assertThat(r.failed()).isTrue();
    assertThat(r.firstText()).isEqualTo("exploded: on purpose");

    try {
      link.client.callTool("protocol_error", null);
      throw new AssertionError("expected a JSON-RPC error");
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32602);
    }
  }

  @Test
  void snakeCaseSplitsWordsAndAcronyms() {
    assertThat(AnnotatedMethod.snakeCase("emitLogs")).isEqualTo("emit_logs");
    assertThat(AnnotatedMethod.snakeCase("echo")).isEqualTo("echo");
    assertThat(AnnotatedMethod.snakeCase("test_simple_text")).isEqualTo("test_simple_text");
    assertThat(AnnotatedMethod.snakeCase("readHTTPStatus2")).isEqualTo("read_http_status2");
    assertThat(AnnotatedMethod.snakeCase("v2Api")).isEqualTo("v2_api");
  }

  @Test
  void emptyOptionalAndNullComponentsOfAStructuredResultAreLeftOutSoItMatchesItsSchema()
      throws Exception {
    CallToolResult r = link.client.callTool("maybe", null);

    assertThat(r.failed()).as(r.firstText()).isFalse();
    assertThat(r.structuredContent())
        .isEqualTo(Json.parse("{'name':'a','more':[{'name':'b','seed':1},{'name':'c'}]}"));
  }
}
