package dev.herald.server;

import dev.herald.internal.session.Capability;
import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.OutboundCall;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.transport.TransportException;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ErrorData;
import dev.herald.wire.InputRequest;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Root;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-to-client requests made by a handler (legacy era: {@code sampling/createMessage},
 * {@code elicitation/create}, {@code roots/list}; MCP 2025-11-25 basic/lifecycle "Capability
 * Negotiation", basic/transports "Sending Messages to the Server").
 *
 * <p>Design note. Each call is gated on what the client declared at bring-up; a missing
 * capability fails the handler at once with -32601 and sends nothing. Each call is made through
 * {@link InboundCall#request}, so it travels on the originating request's stream and is cancelled
 * with it (the engine sends {@code notifications/cancelled} for it). If the handler's thread is
 * interrupted while waiting, the call is cancelled too. Roots are cached per session only when the
 * client promised {@code roots.listChanged}; {@code notifications/roots/list_changed} bumps a
 * generation so a fetch that raced with it does not refill the cache with stale roots.
 */
final class ReverseCalls {
  private ReverseCalls() {}

  static CreateMessageResult sample(
      ServerSession session, InboundCall call, CreateMessageParams params, CallOptions options)
      throws InterruptedException {
    require(session, call, SAMPLING, "sampling/createMessage");
    JsonNode node =
        await(
            call,
            call.request(McpMethods.SAMPLING_CREATE_MESSAGE, McpJson.toObject(params), options));
    return McpJson.resultFromTree(node, CreateMessageResult.class);
  }

  static ElicitResult elicit(
      ServerSession session, InboundCall call, ElicitParams params, CallOptions options)
      throws InterruptedException {
    boolean url = params.effectiveMode() == ElicitParams.Mode.URL;
    require(session, call, url ? URL_ELICITATION : FORM_ELICITATION, "elicitation/create");
    JsonNode node =
        await(call, call.request(McpMethods.ELICITATION_CREATE, McpJson.toObject(params), options));
    return McpJson.resultFromTree(node, ElicitResult.class);
  }

  static List<Root> listRoots(ServerSession session, InboundCall call, CallOptions options)
      throws InterruptedException {
    require(session, call, ROOTS, "roots/list");
    RootsCache cache = session.rootsCache();
    boolean cacheable = session.clientCapabilities().supportsRootsListChanged();
    if (cacheable) {
      List<Root> cached = cache.get();
      if (cached != null) {
        return cached;
      }
    }
    long generation = cache.generation();
    JsonNode node = await(call, call.request(McpMethods.ROOTS_LIST, null, options));
    List<Root> roots = McpJson.resultFromTree(node, ListRootsResult.class).roots();
    if (cacheable) {
      cache.offer(generation, roots);
    }
    return roots;
  }

  /**
   * Sends one input request to the client as a server-to-client request (handshake era) and
   * returns the answer: an {@link ElicitResult}, a {@link CreateMessageResult} or a {@link
   * ListRootsResult}.
   */
  static Object fulfil(
      ServerSession session, InboundCall call, InputRequest request, CallOptions options)
      throws InterruptedException {
    return switch (request) {
      case InputRequest.Elicit e -> elicit(session, call, e.params(), options);
      case InputRequest.CreateMessage m -> sample(session, call, m.params(), options);
      case InputRequest.ListRoots r -> ListRootsResult.of(listRoots(session, call, options));
    };
  }

  /** The client capability an input request needs. */
  static Capability.OfClient capabilityOf(InputRequest request) {
    return switch (request) {
      case InputRequest.Elicit e ->
          e.params().effectiveMode() == ElicitParams.Mode.URL ? URL_ELICITATION : FORM_ELICITATION;
      case InputRequest.CreateMessage m -> SAMPLING;
      case InputRequest.ListRoots r -> ROOTS;
    };
  }

  /** What {@code data.requiredCapabilities} of -32021 names for an input request. */
  static ClientCapabilities required(InputRequest request) {
    ObjectNode empty = McpJson.object();
    return switch (request) {
      case InputRequest.Elicit e ->
          new ClientCapabilities(
              null,
              null,
              null,
              e.params().effectiveMode() == ElicitParams.Mode.URL
                  ? McpJson.object().set("url", empty)
                  : empty,
              null,
              null);
      case InputRequest.CreateMessage m ->
          new ClientCapabilities(null, null, empty, null, null, null);
      case InputRequest.ListRoots r ->
          new ClientCapabilities(null, new ClientCapabilities.Roots(null), null, null, null, null);
    };
  }

  private static final Capability.OfClient SAMPLING =
      new Capability.OfClient("sampling", ClientCapabilities::supportsSampling);
  private static final Capability.OfClient FORM_ELICITATION =
      new Capability.OfClient(
          "elicitation (form mode)", ClientCapabilities::supportsFormElicitation);
  private static final Capability.OfClient URL_ELICITATION =
      new Capability.OfClient("elicitation.url", ClientCapabilities::supportsUrlElicitation);
  private static final Capability.OfClient ROOTS =
      new Capability.OfClient("roots", ClientCapabilities::supportsRoots);

  /**
   * Checks that {@code request} may be sent to the client of this session now, as every reverse
   * request is checked (a task's asks too).
   *
   * @throws McpException -32601 when the client did not declare what it needs, -32600 before
   *     {@code notifications/initialized}
   */
  static void requireFor(ServerSession session, InboundCall call, InputRequest request) {
    require(session, call, capabilityOf(request), methodOf(request));
  }

  /** The method of the server-to-client request that asks {@code request}. */
  static String methodOf(InputRequest request) {
    return switch (request) {
      case InputRequest.Elicit e -> McpMethods.ELICITATION_CREATE;
      case InputRequest.CreateMessage m -> McpMethods.SAMPLING_CREATE_MESSAGE;
      case InputRequest.ListRoots r -> McpMethods.ROOTS_LIST;
    };
  }

  /** Asks the one "does the client support this for this request" function of the method table. */
  private static void require(
      ServerSession session, InboundCall call, Capability.OfClient capability, String method) {
    if (!ServerMethods.clientSupports(session, capability, call)) {
      throw new McpException(
          ErrorCodes.METHOD_NOT_FOUND,
          "Cannot send "
              + method
              + ": the client did not declare the "
              + capability.name()
              + " capability at initialize");
    }
    if (session.state() != ServerSession.State.OPERATING) {
      throw new McpException(
          ErrorCodes.INVALID_REQUEST,
          "Cannot send " + method + " before the client has sent notifications/initialized");
    }
  }

  private static JsonNode await(InboundCall origin, OutboundCall out) throws InterruptedException {
    try {
      return out.result().get();
    } catch (InterruptedException e) {
      out.cancel(
          origin.cancellation().isCancelled() ? "originating request cancelled" : "interrupted");
      throw e;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof McpException
          || c instanceof CancelledException
          || c instanceof TransportException) {
        throw (RuntimeException) c;
      }
      throw new TransportException("reverse call failed: " + c, c);
    }
  }

  /** A session's roots, valid until the client says they changed. Thread-safe. */
  static final class RootsCache {
    // volatile fields, not an AtomicLong and an AtomicReference: every session holds a cache
    private volatile long generation; // bumped through GENERATION
    private volatile @Nullable Cached cached;

    private static final java.lang.invoke.VarHandle GENERATION;

    static {
      try {
        GENERATION =
            java.lang.invoke.MethodHandles.lookup()
                .findVarHandle(RootsCache.class, "generation", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private record Cached(long generation, List<Root> roots) {}

    @Nullable List<Root> get() {
      Cached c = cached;
      return c != null && c.generation() == generation ? c.roots() : null;
    }

    long generation() {
      return generation;
    }

    void offer(long fetchedAt, List<Root> roots) {
      if (fetchedAt == generation) {
        cached = new Cached(fetchedAt, List.copyOf(roots));
      }
    }

    void invalidate() {
      GENERATION.getAndAdd(this, 1L);
      cached = null;
    }
  }

  /**
   * -32021 naming every capability {@code requests} need that {@code declared} says the request
   * did not declare (MCP 2026-07-28 basic/patterns/mrtr: one error lists all of them).
   */
  static void requireDeclared(
      Iterable<? extends InputRequest> requests,
      java.util.function.Predicate<InputRequest> declared) {
    ClientCapabilities needed = null;
    List<String> names = new java.util.ArrayList<>();
    for (InputRequest r : requests) {
      if (!declared.test(r)) {
        ClientCapabilities one = required(r);
        needed = needed == null ? one : needed.union(one);
        names.add(capabilityOf(r).name());
      }
    }
    if (needed != null) {
      throw new McpException(
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
          "Missing required client capability: the request did not declare "
              + String.join(", ", names),
          McpJson.toTree(new ErrorData.MissingRequiredClientCapability(needed)));
    }
  }
}
