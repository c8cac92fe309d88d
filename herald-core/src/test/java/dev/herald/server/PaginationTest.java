package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.Prompt;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.Tool;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class PaginationTest {

  static McpServer server() {
    McpServer.Builder b = McpServer.builder().pageSize(3);
    for (int i = 0; i < 7; i++) {
      String n = String.format("%02d", i);
      b.tool(Tool.builder("tool" + n).description("t").build(), call -> CallToolResult.text("x"));
      b.resource(
          Resource.of("r://" + n, "r" + n, null), ResourceHandler.text("text/plain", () -> "x"));
      b.resourceTemplate(
          ResourceTemplate.of("t://" + n + "/{id}", "t" + n, null),
          ResourceHandler.text("text/plain", () -> "x"));
      b.prompt(Prompt.of("prompt" + n, "p", List.of()), get -> GetPromptResult.of(null, List.of()));
    }
    return b.build();
  }

  /** Walks every page of a list method; returns the pages' item names. */
  static List<List<String>> walk(Peers.Peer peer, String method, String itemsField, String key)
      throws Exception {
    List<List<String>> pages = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page = peer.request(method, McpJson.toObject(PaginatedParams.after(cursor)));
      List<String> names = new ArrayList<>();
      page.get(itemsField).forEach(item -> names.add(item.get(key).stringValue()));
      pages.add(names);
      cursor = page.has("nextCursor") ? page.get("nextCursor").stringValue() : null;
    } while (cursor != null);
    return pages;
  }

  @Test
  void everyListMethodWalksAllPages() throws Exception {
    try (Peers.Peer peer = Peers.connect(server())) {
      assertThat(walk(peer, McpMethods.TOOLS_LIST, "tools", "name"))
          .containsExactly(
              List.of("tool00", "tool01", "tool02"),
              List.of("tool03", "tool04", "tool05"),
              List.of("tool06"));
      assertThat(
              walk(peer, McpMethods.RESOURCES_LIST, "resources", "uri").stream()
                  .flatMap(List::stream))
          .containsExactlyElementsOf(
              IntStream.range(0, 7).mapToObj(i -> String.format("r://%02d", i)).toList());
      assertThat(
              walk(peer, McpMethods.RESOURCES_TEMPLATES_LIST, "resourceTemplates", "uriTemplate"))
          .hasSize(3);
      assertThat(
              walk(peer, McpMethods.PROMPTS_LIST, "prompts", "name").stream().flatMap(List::stream))
          .hasSize(7);
      assertThat(peer.client().listTools()).hasSize(7); // the client's auto-paginating walk
    }
  }

  @Test
  void toolsListPagesOverTheSessionsOverlayToo() throws Exception {
    McpServer server = server();
    try (Peers.Peer peer = Peers.connect(server);
        Peers.Peer other = Peers.connect(server)) {
      peer.session()
          .addTool(
              Tool.builder("tool03").description("shadow").build(),
              call -> CallToolResult.text("mine"));
      peer.session()
          .addTool(
              Tool.builder("tool07").description("own").build(),
              call -> CallToolResult.text("mine"));

      assertThat(walk(peer, McpMethods.TOOLS_LIST, "tools", "name"))
          .containsExactly(
              List.of("tool00", "tool01", "tool02"),
              List.of("tool03", "tool04", "tool05"),
              List.of("tool06", "tool07"));
      assertThat(walk(other, McpMethods.TOOLS_LIST, "tools", "name").stream().flatMap(List::stream))
          .hasSize(7);
      assertThat(peer.client().listTools())
          .filteredOn(t -> t.name().equals("tool03"))
          .extracting(Tool::description)
          .containsExactly("shadow");
    }
  }

  @Test
  void forgedTamperedOrForeignCursorsAreInvalidParams() throws Exception {
    McpServer server = server();
    try (Peers.Peer peer = Peers.connect(server)) {
      ListToolsResult first =
          McpJson.resultFromTree(
              peer.request(McpMethods.TOOLS_LIST, McpJson.object()), ListToolsResult.class);
      String good = first.nextCursor();
      byte[] raw = Base64.getUrlDecoder().decode(good);
      raw[3] ^= 1; // point at another offset, keep the old signature
      String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      String foreign = new Pagination(3).encode(McpMethods.TOOLS_LIST, 3); // another server's key

      for (String bad : List.of("not base64 !", "AAAA", tampered, foreign, "")) {
        McpException e =
            peer.error(McpMethods.TOOLS_LIST, McpJson.toObject(PaginatedParams.after(bad)));
        assertThat(e.code()).as(bad).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(e.getMessage()).isEqualTo("Invalid params: invalid cursor");
      }
      // a cursor of one list is not accepted by another
      assertThat(
              peer.error(McpMethods.PROMPTS_LIST, McpJson.toObject(PaginatedParams.after(good)))
                  .code())
          .isEqualTo(ErrorCodes.INVALID_PARAMS);
      ListToolsResult second =
          McpJson.resultFromTree(
              peer.request(McpMethods.TOOLS_LIST, McpJson.toObject(PaginatedParams.after(good))),
              ListToolsResult.class);
      assertThat(second.tools())
          .extracting(Tool::name)
          .containsExactly("tool03", "tool04", "tool05");
    }
  }

  @Test
  void aCursorBeyondTheEndOfAShrunkenListGivesAnEmptyLastPage() throws Exception {
    Pagination p = new Pagination(2);
    String cursor = p.encode("resources/list", 4);

    Pagination.Page<String> page = p.page("resources/list", List.of("a", "b"), cursor);

    assertThat(page.items()).isEmpty();
    assertThat(page.nextCursor()).isNull();
    assertThatThrownBy(() -> p.page("prompts/list", List.of("a"), cursor))
        .isInstanceOf(McpException.class);
  }
}
