package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener;
import dev.herald.testing.Eventually;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.SamplingMessage;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-request client capabilities inside a handshake-era session (SEP-2575, the cases of the
 * notifications guide's Q6): they add to what the session declared, for that request only; they
 * cannot revoke; they open request-bound behaviour (a reverse call travelling with the request)
 * and never unsolicited notifications (list changes, resource updates, logs).
 */
class PerRequestCapabilitiesTest {
  private final CountingEventListener events = new CountingEventListener();
  private final List<String> seen = new CopyOnWriteArrayList<>();

  private McpServer server() {
    return McpServer.builder()
        .eventListener(events)
        .toolsListChanged(false)
        .listChangedDebounce(Duration.ZERO)
        .tool(
            Tool.builder("probe").build(),
            call -> {
              RequestContext c = call.context();
              seen.add(
                  "sampling="
                      + c.clientCapabilities().supportsSampling()
                      + " elicitation="
                      + c.clientCapabilities().supportsElicitation());
              if (call.string("ask", "").equals("model")) {
                try {
                  c.sample(CreateMessageParams.of(List.of(SamplingMessage.user("hi")), 10));
                  seen.add("sampled");
                } catch (McpException e) {
                  seen.add("refused " + e.code());
                }
              }
              c.log(LoggingLevel.DEBUG, "a debug line");
              return CallToolResult.text("ok");
            })
        .build();
  }

  private static ObjectNode probe(String ask, ClientCapabilities perRequest, String logLevel) {
    ObjectNode params = McpJson.object().put("name", "probe");
    params.putObject("arguments").put("ask", ask);
    ObjectNode meta = params.putObject("_meta");
    meta.set(MetaKeys.CLIENT_CAPABILITIES, McpJson.toTree(perRequest));
    if (logLevel != null) {
      meta.put(MetaKeys.LOG_LEVEL, logLevel);
    }
    return params;
  }

  private static final ClientCapabilities SAMPLING =
      new ClientCapabilities(null, null, McpJson.object(), null, null, null);
  private static final ClientCapabilities ELICITATION =
      new ClientCapabilities(null, null, null, McpJson.object(), null, null);

  @Test
  void aRequestsOwnCapabilitiesAddToTheSessionsForThatRequestOnly() throws Exception {
    List<String> clientSaw = new ArrayList<>();
    try (Peers.RawPeer peer =
        Peers.connectRaw(
            server(),
            ClientCapabilities.none(),
            call -> {
              clientSaw.add(call.method());
              return McpJson.object()
                  .put("role", "assistant")
                  .put("model", "m")
                  .set("content", McpJson.object().put("type", "text").put("text", "hello"));
            })) {
      peer.request(McpMethods.TOOLS_CALL, probe("model", SAMPLING, null));
      peer.request(McpMethods.TOOLS_CALL, probe("model", ClientCapabilities.none(), null));

      assertThat(seen)
          .containsExactly(
              "sampling=true elicitation=false",
              "sampled",
              "sampling=false elicitation=false",
              "refused " + ErrorCodes.METHOD_NOT_FOUND);
      assertThat(clientSaw).containsExactly(McpMethods.SAMPLING_CREATE_MESSAGE);
      assertThat(peer.session().clientCapabilities().supportsSampling()).isFalse();
    }
  }

  @Test
  void aRequestCannotRevokeWhatTheSessionDeclared() throws Exception {
    try (Peers.RawPeer peer = Peers.connectRaw(server(), ELICITATION, call -> McpJson.object())) {
      peer.request(McpMethods.TOOLS_CALL, probe("", ClientCapabilities.none(), null));
      peer.request(McpMethods.TOOLS_CALL, probe("", SAMPLING, null));

      assertThat(seen)
          .containsExactly("sampling=false elicitation=true", "sampling=true elicitation=true");
    }
  }

  @Test
  void aRequestsCapabilitiesAndLogLevelNeverOpenUnsolicitedNotifications() throws Exception {
    McpServer server = server();
    ClientCapabilities everything =
        new ClientCapabilities(
            null,
            new ClientCapabilities.Roots(true),
            McpJson.object(),
            McpJson.object(),
            McpJson.object(),
            McpJson.object());
    try (Peers.RawPeer peer = Peers.connectRaw(server, ClientCapabilities.none(), c -> null)) {
      peer.request(McpMethods.TOOLS_CALL, probe("", everything, "debug"));
      server.addTool(Tool.builder("late").build(), call -> CallToolResult.text("late"));
      server.log(LoggingLevel.DEBUG, null, "to everyone");
      server.notifyResourceUpdated("test://x");

      Eventually.eventually(
          () -> events.gated(EventListener.Family.TOOLS_LIST_CHANGED) >= 1,
          "the list change was gated");
      // the handler's debug line and the server's debug log: below the session's level (info),
      // which a request's logLevel does not lower in the handshake era
      assertThat(events.gated(EventListener.GateReason.BELOW_LEVEL)).isEqualTo(2);
      assertThat(peer.session().logLevel()).isEqualTo(LoggingLevel.INFO);
      assertThat(peer.wire().notifications(McpMethods.MESSAGE)).isEmpty();
      assertThat(peer.wire().notifications(McpMethods.TOOLS_LIST_CHANGED)).isEmpty();
      assertThat(peer.wire().notifications(McpMethods.RESOURCES_UPDATED)).isEmpty();
    }
  }
}
