package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.ListPromptsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import java.util.List;
import java.util.Map;

/**
 * {@code prompts/list} and {@code prompts/get} (MCP specification, "Prompts"). The method table
 * has already checked that the server declared {@code prompts} to this session. Runs on the
 * request's virtual thread.
 */
final class PromptMethods {
  private PromptMethods() {}

  static ListPromptsResult list(ServerSession session, PaginatedParams p, InboundCall call) {
    Pagination.Page<Prompt> page =
        session
            .server()
            .pagination
            .page(
                call.method(),
                Visibility.prompts(session, call, session.promptList(call)),
                p.cursor());
    return ListPromptsResult.of(page.items(), page.nextCursor());
  }

  /** The prompt's {@link GetPromptResult}, or an {@code InputRequiredResult} (2026-07-28). */
  static Object get(ServerSession session, GetPromptParams p, InboundCall call) throws Exception {
    PromptCatalog.Entry entry =
        session
            .findPrompt(p.name(), call)
            .orElseThrow(
                () -> McpException.invalidParams("Invalid params: unknown prompt: " + p.name()));
    Map<String, String> args = p.argumentsOrEmpty();
    List<PromptArgument> declared =
        entry.prompt().arguments() == null ? List.of() : entry.prompt().arguments();
    for (PromptArgument a : declared) {
      if (a.requiredOrFalse() && !args.containsKey(a.name())) {
        throw McpException.invalidParams(
            "Invalid params: prompt " + p.name() + " needs the argument '" + a.name() + "'");
      }
    }
    InputRounds.Target target =
        new InputRounds.Target(
            call.method(), p.name(), McpJson.toTree(args), p.inputResponses(), p.requestState());
    return InputRounds.serve(
        session,
        call,
        target,
        context -> {
          GetPromptResult result = entry.handler().get(new PromptGet(p.name(), args, context));
          return result == null ? GetPromptResult.of(null, List.of()) : result;
        });
  }
}
