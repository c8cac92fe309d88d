package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * A Java SDK client transport that passes everything to the SDK's own transport and keeps a copy
 * of each message in both directions, in order, so a test can check what crossed the wire (and
 * when) rather than only what the SDK's consumers chose to surface.
 */
final class SdkWiretap implements McpClientTransport {
  final List<JSONRPCMessage> inbound = new CopyOnWriteArrayList<>();
  final List<JSONRPCMessage> outbound = new CopyOnWriteArrayList<>();
  private final McpClientTransport delegate;

  SdkWiretap(McpClientTransport delegate) {
    this.delegate = delegate;
  }

  /** Waits until a notification with {@code method} came in. */
  void awaitNotification(String method) {
    eventually(
        () ->
            inbound.stream()
                .anyMatch(m -> m instanceof JSONRPCNotification n && n.method().equals(method)),
        method + " arrives");
  }

  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    return delegate.connect(message -> handler.apply(message.doOnNext(inbound::add)));
  }

  @Override
  public Mono<Void> sendMessage(JSONRPCMessage message) {
    outbound.add(message);
    return delegate.sendMessage(message);
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    delegate.setExceptionHandler(handler);
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return delegate.unmarshalFrom(data, typeRef);
  }
}
