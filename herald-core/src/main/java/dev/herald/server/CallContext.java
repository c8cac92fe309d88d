package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.Implementation;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import dev.herald.wire.Root;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request context a server handler sees: one inbound request on one session, and one run of
 * its handler ({@link InputRound} answers its asks for input).
 */
final class CallContext implements RequestContext {
  private final ServerSession session;
  private final InboundCall call;
  private final InputRound round;

  /** A context for a method that has no input rounds of its own. */
  CallContext(ServerSession session, InboundCall call) {
    this(session, call, InputRound.of(session, call));
  }

  CallContext(ServerSession session, InboundCall call, InputRound round) {
    this.session = session;
    this.call = call;
    this.round = round;
  }

  InboundCall call() {
    return call;
  }

  @Override
  public boolean pollStream() {
    return call.pollStream();
  }

  @Override
  public RequestId requestId() {
    return call.id();
  }

  @Override
  public @Nullable ObjectNode meta() {
    return call.meta();
  }

  @Override
  public ProgressReporter progress() {
    return call.progress();
  }

  @Override
  public CancellationToken cancellation() {
    return call.cancellation();
  }

  @Override
  public ServerSession session() {
    return session;
  }

  @Override
  public java.util.Optional<dev.herald.auth.Principal> principal() {
    dev.herald.auth.Principal p = call.principal();
    return p != null ? java.util.Optional.of(p) : session.principal();
  }

  @Override
  public Optional<Implementation> clientInfo() {
    RequestMeta stateless = call.requestMeta();
    return stateless != null ? Optional.ofNullable(stateless.clientInfo()) : session.clientInfo();
  }

  @Override
  public ClientCapabilities clientCapabilities() {
    return ServerMethods.clientCapabilities(session, call);
  }

  @Override
  public Optional<ProtocolVersion> protocolVersion() {
    RequestMeta stateless = call.requestMeta();
    return stateless != null ? Optional.of(stateless.version()) : session.protocolVersion();
  }

  @Override
  public ProtocolVersion.Era era() {
    return call.stateless() ? ProtocolVersion.Era.MODERN : ProtocolVersion.Era.LEGACY;
  }

  @Override
  public void log(LoggingLevel level, @Nullable String logger, Object data) {
    if (call.cancellation().isCancelled()) {
      return; // a cancelled request sends nothing more
    }
    RequestMeta stateless = call.requestMeta();
    if (stateless != null) {
      session.requestLog(level, logger, data, call, stateless.logLevel());
      return;
    }
    session.log(level, logger, data, call.running() ? call.id() : null);
  }

  @Override
  public CreateMessageResult sample(CreateMessageParams params, CallOptions options)
      throws InterruptedException {
    return round.ask(null, InputRequest.createMessage(params), CreateMessageResult.class, options);
  }

  @Override
  public CreateMessageResult sample(String key, CreateMessageParams params)
      throws InterruptedException {
    return round.ask(
        key, InputRequest.createMessage(params), CreateMessageResult.class, CallOptions.defaults());
  }

  @Override
  public ElicitResult elicit(ElicitParams params, CallOptions options) throws InterruptedException {
    return round.ask(null, InputRequest.elicit(params), ElicitResult.class, options);
  }

  @Override
  public ElicitResult elicit(String key, ElicitParams params) throws InterruptedException {
    return round.ask(key, InputRequest.elicit(params), ElicitResult.class, CallOptions.defaults());
  }

  @Override
  public List<Root> listRoots() throws InterruptedException {
    if (round.mode() == InputRound.Mode.REVERSE) {
      return ReverseCalls.listRoots(session, call, CallOptions.defaults());
    }
    return round
        .ask(null, InputRequest.listRoots(), ListRootsResult.class, CallOptions.defaults())
        .roots();
  }

  @Override
  public List<Root> listRoots(String key) throws InterruptedException {
    if (round.mode() == InputRound.Mode.REVERSE) {
      return ReverseCalls.listRoots(session, call, CallOptions.defaults());
    }
    return round
        .ask(key, InputRequest.listRoots(), ListRootsResult.class, CallOptions.defaults())
        .roots();
  }

  @Override
  public InputResponses ask(Map<String, ? extends InputRequest> requests)
      throws InterruptedException {
    return round.askAll(requests, CallOptions.defaults());
  }

  @Override
  public boolean canAsk(InputRequest request) {
    return round.canAsk(request);
  }

  @Override
  public @Nullable String requestState() {
    return round.handlerState();
  }

  @Override
  public InputResponses inputResponses() {
    return round.responses();
  }
}
