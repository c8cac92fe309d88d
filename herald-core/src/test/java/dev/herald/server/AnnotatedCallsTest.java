package dev.herald.server;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpPrompt;
import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpResourceTemplate;
import dev.herald.server.annotation.McpTool;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.PromptMessage;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Annotated tools, prompts and resources called by a real client over a real transport (stdio
 * framing on in-process pipes): progress, cancellation, logging and elicitation through the
 * request context, structured output, prompt arguments and template variables.
 */
class AnnotatedCallsTest {
  public record Total(long steps, String status) {}

  public static final class Demo {
    final CountDownLatch started = new CountDownLatch(1);
    final AtomicBoolean interrupted = new AtomicBoolean();

    @McpTool(description = "Counts to steps, reporting progress after each")
    public Total count(
        @McpParam(description = "How many steps") long steps, RequestContext context) {
      for (long i = 1; i <= steps; i++) {
        context.progress().report(i, (double) steps, "step " + i + " of " + steps);
      }
      return new Total(steps, "done");
    }

    @McpTool(description = "Blocks until cancelled")
    public String block(RequestContext context) {
      started.countDown();
      try {
        new CountDownLatch(1).await();
        return "never";
      } catch (InterruptedException e) {
        interrupted.set(context.cancellation().isCancelled());
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    }

    @McpTool(description = "Logs at the given level")
    public String shout(LoggingLevel level, RequestContext context) {
      context.log(level, "demo", "shouting at " + level.wire());
      return "ok";
    }

    @McpTool(description = "Asks the user for a name")
    public String ask(RequestContext context) throws InterruptedException {
      ElicitResult r =
          context.elicit(
              ElicitParams.form(
                  "Your name?",
                  Json.parse(
                      "{'type':'object','properties':{'name':{'type':'string'}},'required':['name']}")));
      return "hello " + r.content().get("name").stringValue();
    }

    @McpPrompt(title = "Greeting", description = "Greets someone")
    public String greet(
        @McpParam(description = "Who to greet") String name,
        @McpParam(description = "How") Optional<String> style) {
      return style.orElse("Hello") + ", " + name;
    }

    @McpPrompt(description = "Two messages")
    public List<PromptMessage> dialogue(RequestContext context) {
      return List.of(PromptMessage.user("hi"), PromptMessage.assistant("hello"));
    }

    @McpResource(
        uri = "demo://motd",
        name = "motd",
        mimeType = "text/plain",
        description = "Message of the day")
    public String motd() {
      return "be kind";
    }

    @McpResource(uri = "demo://bytes", mimeType = "application/octet-stream")
    public byte[] bytes() {
      return new byte[] {1, 2, 3};
    }

    @McpResourceTemplate(
        uriTemplate = "demo://users/{id}/posts/{post}",
        mimeType = "application/json",
        description = "A user's post")
    public String post(long id, String post, RequestContext context) {
      if (id == 404) {
        throw ResourceHandler.notFound(context.toString());
      }
      return "{\"id\":" + id + ",\"post\":\"" + post + "\"}";
    }

    @McpResourceTemplate(uriTemplate = "demo://raw/{name}")
    public ReadResourceResult rawTemplate(@McpParam(name = "name") String n) {
      return ReadResourceResult.of(ResourceContents.text("demo://raw/" + n, null, n));
    }
  }

  private final Demo demo = new Demo();
  private final List<LoggingMessageParams> logs = new CopyOnWriteArrayList<>();
  private PipeLink link;

  @BeforeEach
  void setUp() throws InterruptedException {
    McpServer server =
        McpServer.builder().progressInterval(java.time.Duration.ZERO).annotated(demo).build();
    link =
        PipeLink.connect(
            server,
            McpClient.builder()
                .onLog(logs::add)
                .elicitation(
                    (params, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada"))));
  }

  @AfterEach
  void tearDown() {
    link.close();
  }

  @Test
  void progressFromAnAnnotatedToolReachesTheCallerBeforeItsStructuredResult() throws Exception {
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    CallToolResult r =
        link.client.callTool(
            "count",
            McpJson.object().put("steps", 3),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());

    assertThat(r.structuredContent()).isEqualTo(Json.parse("{'steps':3,'status':'done'}"));
    assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 3.0);
    assertThat(updates).extracting(ProgressUpdate::message).last().isEqualTo("step 3 of 3");
  }

  @Test
  void cancellingACallInterruptsTheAnnotatedMethod() throws Exception {
    ToolCallHandle call = link.client.callToolAsync("block", null, CallOptions.defaults());
    assertThat(demo.started.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    assertThat(call.cancel("user pressed stop")).isTrue();

    eventually(demo.interrupted::get, "the method saw its cancellation");
    link.client.ping();
  }

  @Test
  void logsFromTheContextGoToTheCaller() throws Exception {
    assertThat(link.client.callTool("shout", Json.parse("{'level':'warning'}")).firstText())
        .isEqualTo("ok");

    eventually(() -> !logs.isEmpty(), "the log message arrived");
    assertThat(logs.get(0).level()).isEqualTo(LoggingLevel.WARNING);
    assertThat(logs.get(0).data().stringValue()).isEqualTo("shouting at warning");
    assertThat(
            link.client.listTools().stream()
                .filter(t -> t.name().equals("shout"))
                .findFirst()
                .orElseThrow()
                .inputSchema()
                .at("/properties/level/enum/3")
                .stringValue())
        .as("an enum's schema lists the names Jackson reads (LoggingLevel's @JsonValue)")
        .isEqualTo("warning");
  }

  @Test
  void elicitationThroughTheContextAsksTheClient() throws Exception {
    assertThat(link.client.callTool("ask", null).firstText()).isEqualTo("hello Ada");
  }

  @Test
  void promptsListTheirArgumentsAndRenderFromParameters() throws Exception {
    Prompt greet =
        link.client.prompts().stream()
            .filter(p -> p.name().equals("greet"))
            .findFirst()
            .orElseThrow();
    assertThat(greet.title()).isEqualTo("Greeting");
    assertThat(greet.description()).isEqualTo("Greets someone");
    assertThat(greet.arguments())
        .containsExactly(
            PromptArgument.of("name", "Who to greet", true),
            PromptArgument.of("style", "How", false));

    GetPromptResult r = link.client.getPrompt("greet", Map.of("name", "Ada"));
    assertThat(r.messages()).containsExactly(PromptMessage.user("Hello, Ada"));
    assertThat(link.client.getPrompt("greet", Map.of("name", "Ada", "style", "Hi")).messages())
        .containsExactly(PromptMessage.user("Hi, Ada"));
    assertThat(link.client.getPrompt("dialogue", null).messages()).hasSize(2);
  }

  @Test
  void aMissingRequiredPromptArgumentIsRefusedBeforeTheMethodRuns() throws Exception {
    try {
      link.client.getPrompt("greet", Map.of());
      throw new AssertionError("expected -32602");
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32602);
    }
  }

  @Test
  void fixedResourcesAreListedAndRead() throws Exception {
    assertThat(link.client.resources())
        .contains(
            new Resource(
                "demo://motd",
                "motd",
                null,
                "Message of the day",
                "text/plain",
                null,
                null,
                null,
                null),
            new Resource(
                "demo://bytes",
                "bytes",
                null,
                null,
                "application/octet-stream",
                null,
                null,
                null,
                null));
    assertThat(link.client.readResource("demo://motd").contents())
        .containsExactly(ResourceContents.text("demo://motd", "text/plain", "be kind"));
    assertThat(link.client.readResource("demo://bytes").contents())
        .containsExactly(ResourceContents.blob("demo://bytes", "application/octet-stream", "AQID"));
  }

  @Test
  void templateVariablesBindToParameters() throws Exception {
    assertThat(link.client.resourceTemplates())
        .contains(
            new ResourceTemplate(
                "demo://users/{id}/posts/{post}",
                "post",
                null,
                "A user's post",
                "application/json",
                null,
                null,
                null));
    assertThat(link.client.readResource("demo://users/7/posts/hello%20world").contents())
        .containsExactly(
            ResourceContents.text(
                "demo://users/7/posts/hello%20world",
                "application/json", "{\"id\":7,\"post\":\"hello world\"}"));
    assertThat(link.client.readResource("demo://raw/x").contents())
        .containsExactly(ResourceContents.text("demo://raw/x", null, "x"));
  }

  @Test
  void aVariableThatIsNotANumberWhereOneIsExpectedIsNotFound() throws Exception {
    try {
      link.client.readResource("demo://users/seven/posts/p");
      throw new AssertionError("expected -32002");
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32002);
    }
  }
}
