package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.McpException;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.PromptReference;
import dev.herald.wire.ResourceTemplateReference;
import java.util.List;

/**
 * {@code completion/complete} (MCP specification, "Completion"): the reference and argument are
 * checked against what this session sees, then the registered handler runs. The method table has
 * already checked that the server declared {@code completions}. Runs on the request's virtual
 * thread.
 */
final class CompletionMethods {
  private CompletionMethods() {}

  static CompleteResult complete(ServerSession session, CompleteParams p, InboundCall call)
      throws Exception {
    String argument = p.argument().name();
    switch (p.ref()) {
      case PromptReference ref -> {
        PromptCatalog.Entry entry =
            session
                .findPrompt(ref.name(), call)
                .orElseThrow(() ->
                    McpException.invalidParams("Invalid params: unknown prompt: " + ref.name()));
        List<PromptArgument> args =
            entry.prompt().arguments() == null ? List.of() : entry.prompt().arguments();
        if (args.stream().noneMatch(a -> a.name().equals(argument))) {
          throw McpException.invalidParams(
              "Invalid params: prompt " + ref.name() + " has no argument '" + argument + "'");
        }
      }
      case ResourceTemplateReference ref -> {
        UriTemplate template =
            session
                .findTemplate(ref.uri(), call)
                .orElseThrow(() ->
                    McpException.invalidParams(
                        "Invalid params: unknown resource template: " + ref.uri()));
        if (!template.variables().contains(argument)) {
          throw McpException.invalidParams(
              "Invalid params: resource template "
                  + ref.uri()
                  + " has no variable '"
                  + argument
                  + "'");
        }
      }
    }
    CompletionHandler handler = session.server().completions.get(p.ref());
    if (handler == null) {
      return CompleteResult.empty();
    }
    CompletionRequest request =
        new CompletionRequest(
            p.ref(),
            argument,
            p.argument().value(),
            p.contextArguments(),
            new CallContext(session, call));
    List<String> matches = handler.complete(request);
    return CompleteResult.of(matches == null ? List.of() : matches);
  }
}
