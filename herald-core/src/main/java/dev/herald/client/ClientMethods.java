package dev.herald.client;

import dev.herald.internal.session.InboundCall;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ListRootsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import dev.herald.wire.Root;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The client's answers to server-to-client requests: {@code ping}, and {@code
 * sampling/createMessage}, {@code elicitation/create} and {@code roots/list} when the host gave a
 * handler (and so declared the capability). Anything else is -32601. Runs on the request's own
 * virtual thread.
 */
final class ClientMethods {
  private final @Nullable SamplingHandler sampling;
  private final @Nullable ElicitationHandler elicitation;
  private final @Nullable Supplier<List<Root>> roots;

  ClientMethods(@Nullable SamplingHandler sampling, @Nullable ElicitationHandler elicitation, @Nullable Supplier<List<Root>> roots) {
    this.sampling = sampling;
    this.elicitation = elicitation;
    this.roots = roots;
  }

  JsonNode handle(InboundCall call) {
    return switch (call.method()) {
      case McpMethods.PING -> McpJson.object();
      case McpMethods.SAMPLING_CREATE_MESSAGE -> {
        if (sampling == null) {
          throw new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: this client does not support sampling");
        }
        CreateMessageParams p = McpJson.fromTree(call.params(), CreateMessageParams.class);
        CreateMessageResult r = run(() -> sampling.createMessage(p, context(call)), call);
        yield McpJson.toTree(r);
      }
      case McpMethods.ELICITATION_CREATE -> {
        if (elicitation == null) {
          throw new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: this client does not support elicitation");
        }
        ElicitParams p = McpJson.fromTree(call.params(), ElicitParams.class);
        ElicitResult r = run(() -> elicitation.elicit(p, context(call)), call);
        yield McpJson.toTree(ElicitationDefaults.apply(p.requestedSchema(), r));
      }
      case McpMethods.ROOTS_LIST -> {
        if (roots == null) {
          throw new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: this client does not expose roots");
        }
        yield McpJson.toTree(ListRootsResult.of(roots.get()));
      }
      default -> throw McpException.methodNotFound(call.method());
    };
  }

  private interface Body<T> {
    T run() throws Exception;
  }

  private static <T> T run(Body<T> body, InboundCall call) {
    try {
      T result = body.run();
      if (result == null) {
        throw McpException.internal("the host's handler returned no result");
      }
      return result;
    } catch (McpException | dev.herald.session.CancelledException e) {
      throw e;
    } catch (InterruptedException e) {
      throw new dev.herald.session.CancelledException("interrupted");
    } catch (Exception e) {
      System.getLogger("dev.herald.client").log(System.Logger.Level.WARNING, "handler for " + call.method() + " failed", e);
      throw McpException.internal("Internal error in the client's " + call.method() + " handler");
    }
  }

  private static ClientRequestContext context(InboundCall call) {
    return new ClientRequestContext() {
      @Override
      public RequestId requestId() {
        return call.id();
      }

      @Override
      public CancellationToken cancellation() {
        return call.cancellation();
      }

      @Override
      public ProgressReporter progress() {
        return call.progress();
      }
    };
  }
}
