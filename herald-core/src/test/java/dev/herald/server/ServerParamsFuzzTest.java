package dev.herald.server;

import dev.herald.wire.ParamsFuzz;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes the reading of every params type in the server's method table (and the engine's
 * cancellation and progress notifications) with random and mutated params: -32602 in the
 * protocol's terms or a value that reads back the same, never another failure.
 */
class ServerParamsFuzzTest {
  @Provide
  Arbitrary<Class<?>> paramsTypes() {
    return ParamsFuzz.paramsTypes(ServerMethods.ROWS);
  }

  @Provide
  Arbitrary<ObjectNode> params() {
    return ParamsFuzz.params();
  }

  @Property
  void everyParamsTypeReadsOrRefusesWithInvalidParams(
      @ForAll("paramsTypes") Class<?> type, @ForAll("params") ObjectNode params) {
    ParamsFuzz.check(type, params);
  }
}
