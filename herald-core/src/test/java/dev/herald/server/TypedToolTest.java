package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TypedToolTest {
  public enum Unit {
    CELSIUS,
    FAHRENHEIT
  }

  public record Place(String city, @Nullable String country) {}

  public record Forecast(
      Place place,
      int days,
      Unit unit,
      List<String> fields,
      boolean hourly,
      double threshold,
      Optional<Long> seed,
      @Nullable String note) {}

  public record Boom(String why) {}

  public record Loop(String name, List<Loop> children) {}

  public record Odd(Thread thread) {}

  private final AtomicReference<Forecast> bound = new AtomicReference<>();
  private PipeLink link;

  @BeforeEach
  void setUp() throws InterruptedException {
    McpServer server =
        McpServer.builder()
            .tool(
                "forecast",
                "Weather forecast",
                Forecast.class,
                (args, ctx) -> {
                  bound.set(args);
                  return CallToolResult.text(
                      args.place().city() + " " + args.days() + " " + args.unit());
                })
            .tool(
                "boom",
                "Always fails",
                Boom.class,
                (args, ctx) -> {
                  throw new IllegalStateException("exploded: " + args.why());
                })
            .build();
    link = PipeLink.connect(server);
  }

  @AfterEach
  void tearDown() {
    link.close();
  }

  @Test
  void aTypedToolBindsItsRecord() throws Exception {
    CallToolResult r =
        link.client.callTool(
            "forecast",
            Json.parse(
                "{'place':{'city':'Oslo'},'days':3,'unit':'CELSIUS','fields':['wind','rain'],'hourly':true,'threshold':0.5,'seed':7}"));

    assertThat(r.failed()).isFalse();
    assertThat(r.firstText()).isEqualTo("Oslo 3 CELSIUS");
    assertThat(bound.get())
        .isEqualTo(
            new Forecast(
                new Place("Oslo", null),
                3,
                Unit.CELSIUS,
                List.of("wind", "rain"),
                true,
                0.5,
                Optional.of(7L),
                null));
  }

  @Test
  void theDerivedSchemaRequiresEveryComponentExceptOptionalAndNullableOnes() throws Exception {
    Tool tool =
        link.client.listTools().stream()
            .filter(t -> t.name().equals("forecast"))
            .findFirst()
            .orElseThrow();

    assertThat(tool.description()).isEqualTo("Weather forecast");
    assertThat(McpJson.mapper().convertValue(tool.inputSchema().get("required"), String[].class))
        .containsExactly("place", "days", "unit", "fields", "hourly", "threshold");
    assertThat(tool.inputSchema().at("/properties/place/required").get(0).stringValue())
        .isEqualTo("city");
    assertThat(tool.inputSchema().at("/properties/unit/enum").toString())
        .isEqualTo("[\"CELSIUS\",\"FAHRENHEIT\"]");
    assertThat(tool.inputSchema().at("/properties/fields/items/type").stringValue())
        .isEqualTo("string");
    assertThat(tool.inputSchema().at("/properties/days/type").stringValue()).isEqualTo("integer");
    assertThat(tool.inputSchema().at("/properties/threshold/type").stringValue())
        .isEqualTo("number");
    assertThat(tool.inputSchema().at("/properties/seed/type").stringValue()).isEqualTo("integer");
  }

  @Test
  void argumentsThatDoNotFitTheRecordAreRejectedBeforeTheHandlerRuns() throws Exception {
    CallToolResult r =
        link.client.callTool(
            "forecast",
            Json.parse(
                "{'place':{'city':'Oslo'},'days':'three','unit':'KELVIN','fields':[],'hourly':true,'threshold':1,'extra':1}"));

    assertThat(r.failed()).isTrue();
    assertThat(r.firstText()).contains("$.days").contains("$.unit").contains("extra");
    assertThat(bound.get()).isNull();
    assertThat(
            link.client
                .callTool(
                    "forecast",
                    Json.parse(
                        "{'place':{'city':'Rome'},'days':1,'unit':'FAHRENHEIT','fields':[],'hourly':false,'threshold':1}"))
                .firstText())
        .isEqualTo("Rome 1 FAHRENHEIT");
  }

  @Test
  void anExceptionFromATypedHandlerIsAnIsErrorResult() throws Exception {
    CallToolResult r = link.client.callTool("boom", Json.parse("{'why':'on purpose'}"));

    assertThat(r.failed()).isTrue();
    assertThat(r.firstText()).isEqualTo("exploded: on purpose");
    link.client.ping();
  }

  @Test
  void unsupportedOrRecursiveRecordsAreRefusedAtRegistrationNamingTheComponent() {
    assertThatThrownBy(() -> McpServer.builder().tool("odd", "x", Odd.class, (a, c) -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Odd.thread")
        .hasMessageContaining("java.lang.Thread");
    assertThatThrownBy(() -> McpServer.builder().tool("loop", "x", Loop.class, (a, c) -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("refers to itself");
  }

  @Test
  void aTypedToolAddedAtRunTimeIsCallable() throws Exception {
    link.session
        .server()
        .addTool("echo_boom", "Echo", Boom.class, (args, ctx) -> CallToolResult.text(args.why()));

    assertThat(link.client.callTool("echo_boom", Json.parse("{'why':'hi'}")).firstText())
        .isEqualTo("hi");
  }
}
