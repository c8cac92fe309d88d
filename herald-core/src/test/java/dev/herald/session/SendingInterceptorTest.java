package dev.herald.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.server.McpServer;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Interceptor#sending} sees every request this side sends and may put {@code _meta}
 * entries that the peer receives; {@link EventListener.Factory#and} tells both listeners.
 */
@Timeout(30)
class SendingInterceptorTest {
  private final List<String> metaSeen = new CopyOnWriteArrayList<>();
  private final List<String> ended = new CopyOnWriteArrayList<>();

  private McpServer server() {
    return McpServer.builder()
        .interceptor(chain -> {
          ObjectNode meta = chain.meta();
          JsonNode v = meta == null ? null : meta.get("traceparent");
          if (v != null) {
            metaSeen.add(chain.method() + " " + v.stringValue());
          }
          return chain.proceed();
        })
        .tool(Tool.builder("echo").build(), call -> CallToolResult.text("ok"))
        .build();
  }

  private McpClient connect(McpServer server, Interceptor<McpClient> interceptor)
      throws InterruptedException {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    return McpClient.builder().interceptor(interceptor).connect(pair.client());
  }

  @Test
  void aClientsSendingHookPutsMetaEntriesThePeerReceivesAndIsToldWhenEachRequestEnds()
      throws Exception {
    ObjectNode arguments = McpJson.object().put("x", 1);
    ObjectNode before = arguments.deepCopy();
    Interceptor<McpClient> tagging =
        new Interceptor<>() {
          @Override
          public JsonNode intercept(Chain<McpClient> chain) throws Exception {
            return chain.proceed();
          }

          @Override
          public Sent sending(Sending request) {
            request.putMeta("traceparent", "tp-" + request.id());
            String method = request.method();
            return (result, failure) ->
                ended.add(method + (failure == null ? " ok" : " " + failure.getClass().getName()));
          }
        };
    McpServer server = server();
    try (McpClient client = connect(server, tagging)) {
      assertThat(client.callTool("echo", arguments).firstText()).isEqualTo("ok");
      try {
        client.callTool("missing", null);
      } catch (McpException expected) {
        // -32602
      }
      dev.herald.testing.Eventually.eventually(
          () -> ended.size() >= 3, "the end of the discovery and both calls was told");
    } finally {
      server.close();
    }
    assertThat(arguments).as("the caller's params are not changed").isEqualTo(before);
    assertThat(metaSeen)
        .as("what the server received")
        .anySatisfy(s -> assertThat(s).startsWith("tools/call tp-"));
    assertThat(ended)
        .contains(
            "server/discover ok", "tools/call ok", "tools/call " + McpException.class.getName());
  }

  @Test
  void aSendingHookThatThrowsLeavesTheRequestAsItWas() throws Exception {
    Interceptor<McpClient> broken =
        new Interceptor<>() {
          @Override
          public JsonNode intercept(Chain<McpClient> chain) throws Exception {
            return chain.proceed();
          }

          @Override
          public Sent sending(Sending request) {
            throw new IllegalStateException("broken on purpose");
          }
        };
    McpServer server = server();
    try (McpClient client = connect(server, broken)) {
      assertThat(client.callTool("echo", null).firstText()).isEqualTo("ok");
    } finally {
      server.close();
    }
    assertThat(metaSeen).isEmpty();
  }

  @Test
  void bothListenersOfAndSeeEveryCallback() {
    List<String> seen = new ArrayList<>();
    EventListener.Factory first =
        role ->
            new EventListener() {
              @Override
              public void streamClosed(StreamKind kind) {
                seen.add("first " + kind);
              }
            };
    EventListener.Factory second =
        role ->
            new EventListener() {
              @Override
              public void streamClosed(StreamKind kind) {
                seen.add("second " + kind);
              }
            };
    first
        .and(second)
        .create(EventListener.Role.SERVER)
        .streamClosed(EventListener.StreamKind.REQUEST);
    assertThat(seen).containsExactly("first REQUEST", "second REQUEST");

    // every callback is forwarded: a new one cannot be forgotten in BothEventListeners
    List<String> missing = new ArrayList<>();
    for (Method m : EventListener.class.getDeclaredMethods()) {
      if (m.isDefault() && !Modifier.isStatic(m.getModifiers())) {
        try {
          Method forwarded =
              BothEventListeners.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
          assertThat(forwarded.getDeclaringClass()).isEqualTo(BothEventListeners.class);
        } catch (NoSuchMethodException e) {
          missing.add(m.getName() + Arrays.toString(m.getParameterTypes()));
        }
      }
    }
    assertThat(missing).isEmpty();
  }
}
