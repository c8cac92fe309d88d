package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.server.annotation.McpResourceTemplate;
import dev.herald.server.annotation.McpTool;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.Tool;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.EnumNamingStrategies;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * {@code McpServer.Builder.jsonMapper}: an application's mapper binds typed and annotated tools'
 * arguments and writes their results, and their schemas name what it reads and writes.
 */
class JsonMapperOptionTest {
  /** Writes every double rounded to one decimal. */
  static final class OneDecimal extends ValueSerializer<Double> {
    @Override
    public void serialize(Double value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeNumber(Math.round(value * 10) / 10.0);
    }
  }

  public record Reading(String sensorName, double celsius) {}

  public static final class Sensors {
    @McpTool(description = "Reads a sensor")
    public Reading read(String sensorName) {
      return new Reading(sensorName, 21.4567);
    }
  }

  public record Trip(String cityName, long daysAhead) {}

  private static JsonMapper appMapper() {
    SimpleModule module = new SimpleModule("app");
    module.addSerializer(Double.class, new OneDecimal());
    module.addSerializer(double.class, new OneDecimal());
    return JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .addModule(module)
        .build();
  }

  private static McpClient connect(McpServer server) throws InterruptedException {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    return McpClient.builder().connect(pair.client());
  }

  @Test
  void aCustomSerializerOnTheApplicationsMapperChangesAnAnnotatedToolsResult() throws Exception {
    McpServer herald = McpServer.builder().annotated(new Sensors()).build();
    McpServer app = McpServer.builder().jsonMapper(appMapper()).annotated(new Sensors()).build();
    try (McpClient plain = connect(herald);
        McpClient custom = connect(app)) {
      CallToolResult before = plain.callTool("read", McpJson.object().put("sensorName", "roof"));
      CallToolResult after = custom.callTool("read", McpJson.object().put("sensorName", "roof"));

      assertThat(String.valueOf(before.structuredContent()))
          .isEqualTo("{\"sensorName\":\"roof\",\"celsius\":21.4567}");
      assertThat(after.failed()).isFalse();
      assertThat(String.valueOf(after.structuredContent()))
          .isEqualTo("{\"sensor_name\":\"roof\",\"celsius\":21.5}");
      // The schemas follow the mapper's names, so the result conforms to the listed output schema.
      Tool listed = custom.tools().getFirst();
      assertThat(listed.outputSchema().path("properties").propertyNames())
          .containsExactly("sensor_name", "celsius");
    }
  }

  @Test
  void aTypedToolsArgumentsAreNamedAndBoundByTheApplicationsMapper() throws Exception {
    McpServer server =
        McpServer.builder()
            .jsonMapper(appMapper())
            .tool(
                "plan",
                "Plans a trip",
                Trip.class,
                (trip, context) ->
                    CallToolResult.text(trip.cityName() + " in " + trip.daysAhead() + " days"))
            .build();
    try (McpClient client = connect(server)) {
      Map<String, Tool> tools =
          client.tools().stream().collect(Collectors.toMap(Tool::name, Function.identity()));
      assertThat(tools.get("plan").inputSchema().path("properties").propertyNames())
          .containsExactly("city_name", "days_ahead");

      CallToolResult r =
          client.callTool("plan", McpJson.object().put("city_name", "Oslo").put("days_ahead", 3));
      assertThat(r.firstText()).isEqualTo("Oslo in 3 days");
      // The Java names are not the mapper's: refused by the schema before anything is bound.
      assertThat(
              client
                  .callTool("plan", McpJson.object().put("cityName", "Oslo").put("daysAhead", 3))
                  .failed())
          .isTrue();
    }
  }

  public enum Shelf {
    TOP_SHELF,
    BOTTOM_SHELF
  }

  public static final class Shelves {
    @McpResourceTemplate(uriTemplate = "store://shelves/{shelf}", mimeType = "text/plain")
    public String shelf(Shelf shelf) {
      return shelf.name();
    }
  }

  @Test
  void anEnumTemplateVariableIsReadByTheApplicationsMapper() throws Exception {
    JsonMapper kebab =
        JsonMapper.builder().enumNamingStrategy(EnumNamingStrategies.KEBAB_CASE).build();
    McpServer server = McpServer.builder().jsonMapper(kebab).annotated(new Shelves()).build();
    try (McpClient client = connect(server)) {
      assertThat(client.readResource("store://shelves/top-shelf").contents())
          .containsExactly(
              ResourceContents.text("store://shelves/top-shelf", "text/plain", "TOP_SHELF"));
      assertThatThrownBy(() -> client.readResource("store://shelves/TOP_SHELF"))
          .isInstanceOf(McpException.class)
          .hasMessageContaining("not found");
    }
  }

  @Test
  void theMapperCannotChangeAfterATypedOrAnnotatedToolWasRegistered() {
    assertThatThrownBy(() -> McpServer.builder().annotated(new Sensors()).jsonMapper(appMapper()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jsonMapper must be set before typed and annotated tools")
        .hasMessageContaining(Sensors.class.getName());
    assertThatThrownBy(() ->
            McpServer.builder()
                .tool("plan", "Plans", Trip.class, (t, c) -> CallToolResult.text("x"))
                .jsonMapper(appMapper()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("typed tool plan");
  }
}
