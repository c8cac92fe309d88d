package dev.herald.server;

import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import tools.jackson.databind.introspect.ClassIntrospector;

/**
 * The JSON names a mapper gives a record's components: its naming strategy, {@code @JsonProperty}
 * renames and mix-ins applied, so that a derived schema names the properties the mapper then reads
 * and writes.
 *
 * <p>Design note. Asked of Jackson's own introspection (the bean description the mapper builds
 * before it serializes the type), once per record when a tool is registered, never per call. A
 * component Jackson does not describe keeps its Java name.
 */
final class JsonNames {
  private JsonNames() {}

  /** Component name to JSON name, for the components whose JSON name Jackson reports. */
  static Map<String, String> of(Class<?> type, ObjectMapper mapper) {
    SerializationConfig config = mapper.serializationConfig();
    JavaType javaType = config.constructType(type);
    ClassIntrospector introspector = config.classIntrospectorInstance().forOperation(config);
    BeanDescription description =
        introspector.introspectForSerialization(
            javaType, introspector.introspectClassAnnotations(javaType));
    Map<String, String> names = new HashMap<>();
    for (BeanPropertyDefinition p : description.findProperties()) {
      names.put(p.getInternalName(), p.getName());
    }
    return names;
  }
}
