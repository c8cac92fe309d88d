package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.PromptReference;
import dev.herald.wire.Role;
import dev.herald.wire.SamplingContent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every 2026-07-28 request carries its metadata in {@code _meta} (MCP 2026-07-28 basic/index,
 * "_meta"): the protocol version, the client's capabilities, {@code clientInfo}, the log level the
 * host asked for, a progress token when the call wants progress; a call's own capabilities are
 * added for that request only (SEP-2575), in both eras.
 */
@Timeout(30)
class RequestMetadataTest {

  private static ModernPeer peer() {
    ModernPeer peer = new ModernPeer();
    peer.on(McpMethods.TOOLS_CALL, r -> result(r, "{\"resultType\":\"complete\",\"content\":[]}"));
    peer.on(
        McpMethods.PROMPTS_GET, r -> result(r, "{\"resultType\":\"complete\",\"messages\":[]}"));
    peer.on(
        McpMethods.RESOURCES_READ,
        r ->
            result(
                r,
                "{\"resultType\":\"complete\",\"contents\":[],\"ttlMs\":0,\"cacheScope\":\"public\"}"));
    peer.on(
        McpMethods.COMPLETION_COMPLETE,
        r -> result(r, "{\"resultType\":\"complete\",\"completion\":{\"values\":[]}}"));
    return peer;
  }

  private static ObjectNode meta(JsonRpcMessage.Request r) {
    return (ObjectNode) r.params().get("_meta");
  }

  @Test
  void everyRequestOfA2026ClientCarriesVersionCapabilitiesAndClientInfo() throws Exception {
    ModernPeer peer = peer();
    try (McpClient c =
        McpClient.builder()
            .info("meta-client", "3.1")
            .sampling((p, ctx) ->
                CreateMessageResult.of(Role.ASSISTANT, SamplingContent.text("hi"), "m", null))
            .connect(peer.clientEnd())) {
      c.tools();
      c.prompts();
      c.resources();
      c.resourceTemplates();
      c.callTool("t", McpJson.object());
      c.getPrompt("p", Map.of());
      c.readResource("test://r");
      c.complete(CompleteParams.of(PromptReference.of("p"), "a", "x"));

      List<JsonRpcMessage.Request> sent = peer.requests();
      assertThat(sent).hasSizeGreaterThanOrEqualTo(9);
      for (JsonRpcMessage.Request r : sent) {
        ObjectNode meta = meta(r);
        assertThat(MetaKeys.protocolVersion(meta)).as(r.method()).isEqualTo("2026-07-28");
        assertThat(MetaKeys.clientCapabilities(meta).supportsSampling()).as(r.method()).isTrue();
        assertThat(MetaKeys.clientInfo(meta).name()).as(r.method()).isEqualTo("meta-client");
        assertThat(meta.has(MetaKeys.LOG_LEVEL)).as("no log level was asked for").isFalse();
        assertThat(meta.has(MetaKeys.PROGRESS_TOKEN)).as("no progress was asked for").isFalse();
      }
    }
  }

  @Test
  void theLogLevelTheHostSetRidesEveryLaterRequestAndNoSetLevelIsSent() throws Exception {
    ModernPeer peer = peer();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      c.setLoggingLevel(LoggingLevel.WARNING);
      c.callTool("t", null);
      assertThat(peer.requests(McpMethods.LOGGING_SET_LEVEL)).isEmpty();
      assertThat(MetaKeys.logLevel(meta(peer.requests(McpMethods.TOOLS_CALL).get(0))))
          .isEqualTo("warning");
    }
  }

  @Test
  void aCallThatWantsProgressCarriesItsTokenBesideTheMetadata() throws Exception {
    ModernPeer peer = peer();
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      c.callTool("t", null, CallOptions.builder().progress(u -> {}).build());
      ObjectNode meta = meta(peer.requests(McpMethods.TOOLS_CALL).get(0));
      assertThat(meta.has(MetaKeys.PROGRESS_TOKEN)).isTrue();
      assertThat(MetaKeys.protocolVersion(meta)).isEqualTo("2026-07-28");
    }
  }

  @Test
  void aCallsOwnCapabilitiesAreAddedForThatRequestOnly() throws Exception {
    ModernPeer peer = peer();
    try (McpClient c =
        McpClient.builder()
            .sampling((p, ctx) ->
                CreateMessageResult.of(Role.ASSISTANT, SamplingContent.text("hi"), "m", null))
            .connect(peer.clientEnd())) {
      ClientCapabilities elicitation =
          new ClientCapabilities(
              null, null, null, McpJson.object().set("form", McpJson.object()), null, null);
      c.callTool("t", null, CallOptions.builder().capabilities(elicitation).build());
      c.callTool("t", null);

      List<JsonRpcMessage.Request> calls = peer.requests(McpMethods.TOOLS_CALL);
      ClientCapabilities first = MetaKeys.clientCapabilities(meta(calls.get(0)));
      assertThat(first.supportsElicitation()).as("the call's own").isTrue();
      assertThat(first.supportsSampling()).as("the client's, kept").isTrue();
      ClientCapabilities second = MetaKeys.clientCapabilities(meta(calls.get(1)));
      assertThat(second.supportsElicitation()).as("not outliving its request").isFalse();
      assertThat(second.supportsSampling()).isTrue();
    }
  }

  @Test
  void inTheHandshakeEraACallsOwnCapabilitiesRideItsMetaWithoutAVersion() throws Exception {
    ModernPeer peer =
        ModernPeer.legacy(r -> ModernPeer.error(r, ErrorCodes.METHOD_NOT_FOUND, "nope", null));
    peer.on(McpMethods.TOOLS_CALL, r -> result(r, "{\"content\":[]}"));
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      ClientCapabilities roots =
          new ClientCapabilities(null, new ClientCapabilities.Roots(null), null, null, null, null);
      c.callTool("t", null, CallOptions.builder().capabilities(roots).build());
      c.callTool("t", null);
      List<JsonRpcMessage.Request> calls = peer.requests(McpMethods.TOOLS_CALL);
      ObjectNode meta = meta(calls.get(0));
      assertThat(MetaKeys.clientCapabilities(meta).supportsRoots()).isTrue();
      assertThat(meta.has(MetaKeys.PROTOCOL_VERSION)).isFalse();
      assertThat(calls.get(1).params().has("_meta")).isFalse();
    }
  }

  @Test
  void cancellingA2026CallSendsCancelledNamingItsRequestId() throws Exception {
    ModernPeer peer = peer();
    peer.on(McpMethods.TOOLS_CALL, r -> null); // never answers
    try (McpClient c = McpClient.builder().connect(peer.clientEnd())) {
      ToolCallHandle h = c.callToolAsync("slow", null, CallOptions.defaults());
      dev.herald.testing.Eventually.eventually(
          () -> !peer.requests(McpMethods.TOOLS_CALL).isEmpty(), "the call arrived");
      assertThat(h.cancel("enough")).isTrue();
      dev.herald.testing.Eventually.eventually(
          () -> !peer.notifications(McpMethods.CANCELLED).isEmpty(), "the cancel arrived");
      ObjectNode p = peer.notifications(McpMethods.CANCELLED).get(0).params();
      assertThat(McpJson.fromTree(p.get("requestId"), dev.herald.wire.RequestId.class))
          .isEqualTo(peer.requests(McpMethods.TOOLS_CALL).get(0).id());
    }
  }
}
