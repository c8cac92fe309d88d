package dev.herald.spring.boot.jsonmapper;

import dev.herald.server.annotation.McpTool;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * An application with its own Jackson 3 {@code JsonMapper} bean (snake_case names) and one
 * annotated tool whose argument and result are records: the starter hands the mapper to the
 * server, so the tool's schemas and its JSON follow the application's naming.
 */
@SpringBootApplication
public class JsonMapperApplication {
  /** The application's mapper. */
  @Bean
  JsonMapper applicationJsonMapper() {
    return JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
  }

  /** What {@code ship} takes. */
  public record Parcel(String recipientName, long weightGrams) {}

  /** What {@code ship} answers. */
  public record Shipment(String trackingCode, String recipientName) {}

  /** The annotated bean. */
  @Component
  public static class Shipping {
    /** Ships a parcel. */
    @McpTool(description = "Ships a parcel")
    public Shipment ship(Parcel parcel) {
      return new Shipment("HX" + parcel.weightGrams(), parcel.recipientName());
    }
  }
}
