package dev.herald.client;

import dev.herald.internal.session.MethodRow;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.ParamsFuzz;
import dev.herald.wire.ProgressNotificationParams;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes the reading of every params type in the client's method table (and the engine's
 * cancellation and progress notifications) with random and mutated params: -32602 in the
 * protocol's terms or a value that reads back the same, never another failure.
 */
class ClientParamsFuzzTest {
  static List<Class<?>> types() {
    Set<Class<?>> types = new LinkedHashSet<>();
    for (MethodRow<?, ?, ?> row : ClientMethods.ROWS) {
      if (row.paramsType() != Void.class) {
        types.add(row.paramsType());
      }
    }
    types.add(CancelledNotificationParams.class);
    types.add(ProgressNotificationParams.class);
    return new ArrayList<>(types);
  }

  @Provide
  Arbitrary<Class<?>> paramsTypes() {
    return Arbitraries.of(types());
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
