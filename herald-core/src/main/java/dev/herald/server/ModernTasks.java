package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ErrorData;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.TasksExtension;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rules of the 2026-07-28 {@code io.modelcontextprotocol/tasks} extension (SEP-2663) that do
 * not depend on a running task: when the server offers it, whether a request declared it, the
 * -32021 a request that did not declare it gets, and which tasks a listener may hear about.
 *
 * <p>Design note. The extension is negotiated per request (SEP-2575): a request declares it in
 * {@code _meta["io.modelcontextprotocol/clientCapabilities"].extensions}, or a handshake-era
 * session declared it at {@code initialize}; {@link ServerMethods#clientCapabilities} is the one
 * reader of both. The server offers it in {@code server/discover} ({@code
 * capabilities.extensions["io.modelcontextprotocol/tasks"] = {}}) while any of its tools may run
 * as a task, and never as the 2025-11-25 {@code capabilities.tasks}.
 */
final class ModernTasks {
  private ModernTasks() {}

  /** Whether any of the server's tools may run as a task (its task support is not forbidden). */
  static boolean offered(McpServer server) {
    for (RegisteredTool t : server.tools.list()) {
      if (t.tool().taskSupport() != TaskSupport.FORBIDDEN) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code call} declared the extension (itself, or its handshake-era session). */
  static boolean declared(ServerSession session, InboundCall call) {
    return ServerMethods.clientCapabilities(session, call).supportsExtension(TasksExtension.ID);
  }

  /** Whether {@code call} is a 2026-07-28 request (served without a handshake). */
  static boolean modern(InboundCall call) {
    return call.stateless();
  }

  /**
   * -32021 naming the extension: {@code data.requiredCapabilities.extensions
   * ["io.modelcontextprotocol/tasks"] = {}} (SEP-2575 "Missing Required Capabilities").
   *
   * @param what what needed it, for the message (e.g. {@code "tasks/get"})
   */
  static McpException missingExtension(String what) {
    ObjectNode ext = McpJson.object();
    ext.putObject(TasksExtension.ID);
    ClientCapabilities needed = new ClientCapabilities(null, null, null, null, null, ext);
    return new McpException(
        ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability: "
            + what
            + " needs the "
            + TasksExtension.ID
            + " extension, which the request did not declare",
        McpJson.toTree(new ErrorData.MissingRequiredClientCapability(needed)));
  }

  /**
   * -32021 unless {@code call} declared the extension.
   *
   * @throws McpException -32021 from {@link #missingExtension}
   */
  static void requireDeclared(ServerSession session, InboundCall call) {
    if (!declared(session, call)) {
      throw missingExtension(call.method());
    }
  }

  /**
   * Who {@code call} is, as a task owner in the 2026-07-28 era: the principal (a digest, see
   * {@link InputRounds#principal}) when the server's principal hook names one, otherwise anyone
   * (the 128-bit random task id is the capability).
   */
  static TaskOwner owner(@Nullable String principal) {
    return principal == null ? TaskOwner.anyone() : TaskOwner.principal(principal);
  }

  /**
   * Whether a listener that is {@code listener} may hear about {@code task}: only a task of the
   * 2026-07-28 era, owned by anyone or by that very principal. A task it may not see is treated
   * like an unknown one: nothing is ever sent about it.
   */
  static boolean visible(StoredTask task, TaskOwner listener) {
    if (task.era() != ProtocolVersion.Era.MODERN) {
      return false;
    }
    return switch (task.owner().kind()) {
      case ANYONE -> true;
      case PRINCIPAL -> task.owner().equals(listener);
      case SESSION -> false;
    };
  }
}
