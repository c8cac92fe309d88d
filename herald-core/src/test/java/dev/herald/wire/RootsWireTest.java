package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 client/roots page. */
class RootsWireTest {

  @Test
  void listRootsResultRoundTrips() {
    ListRootsResult r =
        assertRoundTrip(
            """
            {"roots":[{"uri":"file:///home/user/repos/frontend","name":"Frontend Repository"},
                      {"uri":"file:///home/user/repos/backend","name":"Backend Repository","_meta":{"a":"b"}}]}
            """,
            ListRootsResult.class);
    assertThat(r.roots())
        .extracting(Root::name)
        .containsExactly("Frontend Repository", "Backend Repository");
  }

  @Test
  void rootNameIsOptional() {
    Root r = assertRoundTrip("{\"uri\":\"file:///home/user/projects/myproject\"}", Root.class);
    assertThat(r.name()).isNull();
    assertSameJson(
        ListRootsResult.of(List.of(Root.of("file:///x", null))),
        "{\"roots\":[{\"uri\":\"file:///x\"}]}");
  }

  @Test
  void listRootsParamsAndListChangedCarryOnlyMeta() {
    EmptyParams p = assertRoundTrip("{\"_meta\":{\"progressToken\":7}}", EmptyParams.class);
    assertThat(MetaKeys.progressToken(p.meta())).isEqualTo(ProgressToken.of(7));
    assertRoundTrip("{}", EmptyParams.class);
  }
}
