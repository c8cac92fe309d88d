package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.server.annotation.McpAnnotations;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpPrompt;
import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpResourceTemplate;
import dev.herald.server.annotation.McpTool;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes in annotated classes fail registration, before any call, naming the class, the method
 * and the reason.
 */
class AnnotatedErrorsTest {
  private static AbstractThrowableAssert<?, ? extends Throwable> registering(Object... beans) {
    return assertThatThrownBy(() -> McpServer.builder().annotated(beans))
        .isInstanceOf(IllegalArgumentException.class);
  }

  public static final class TwoToolsOneName {
    @McpTool(name = "same")
    public String a() {
      return "a";
    }

    @McpTool(name = "same")
    public String b() {
      return "b";
    }
  }

  @Test
  void twoToolsWithOneNameAreRefusedNamingBothMethods() {
    registering(new TwoToolsOneName())
        .hasMessageContaining(
            TwoToolsOneName.class.getName() + ".b: tool same is already declared by")
        .hasMessageContaining(TwoToolsOneName.class.getName() + ".a");
  }

  public static final class Echo {
    @McpTool
    public String echo(String text) {
      return text;
    }
  }

  @Test
  void aToolNameAlreadyRegisteredOnTheBuilderIsRefused() {
    assertThatThrownBy(() ->
            McpServer.builder()
                .tool(Tool.builder("echo").build(), c -> CallToolResult.text("x"))
                .annotated(new Echo()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Echo.class.getName() + ".echo: tool echo was already registered");
  }

  @Test
  void theSameToolInTwoObjectsIsRefused() {
    registering(new Echo(), new Echo()).hasMessageContaining("tool echo is already declared by");
  }

  public static final class UnsupportedParameter {
    @McpTool
    public String run(Thread thread) {
      return "x";
    }
  }

  @Test
  void anUnsupportedParameterTypeIsRefusedNamingTheParameter() {
    registering(new UnsupportedParameter())
        .hasMessageContaining(UnsupportedParameter.class.getName() + ".run: parameter thread")
        .hasMessageContaining("java.lang.Thread");
  }

  public record WithThread(String name, Thread thread) {}

  public static final class UnsupportedComponent {
    @McpTool
    public String run(WithThread arg) {
      return "x";
    }
  }

  @Test
  void anUnsupportedRecordComponentIsRefusedNamingTheComponent() {
    registering(new UnsupportedComponent())
        .hasMessageContaining(UnsupportedComponent.class.getName() + ".run: parameter arg")
        .hasMessageContaining("WithThread.thread");
  }

  public static final class UnsupportedReturn {
    @McpTool
    public Map<String, String> run() {
      return Map.of();
    }
  }

  @Test
  void anUnsupportedReturnTypeIsRefused() {
    registering(new UnsupportedReturn())
        .hasMessageContaining(
            UnsupportedReturn.class.getName()
                + ".run: cannot return java.util.Map<java.lang.String, java.lang.String>");
  }

  public static final class TwoContexts {
    @McpTool
    public String run(RequestContext a, RequestContext b) {
      return "x";
    }
  }

  @Test
  void twoContextParametersAreRefused() {
    registering(new TwoContexts())
        .hasMessageContaining(TwoContexts.class.getName() + ".run: takes the RequestContext twice");
  }

  public static final class NotPublic {
    @McpTool
    String run() {
      return "x";
    }
  }

  @Test
  void aNonPublicMethodIsRefused() {
    registering(new NotPublic())
        .hasMessageContaining(NotPublic.class.getName() + ".run: is not public");
  }

  public static final class OptionalPrimitive {
    @McpTool
    public String run(@McpParam(required = false) int count) {
      return "x";
    }
  }

  @Test
  void anOptionalPrimitiveIsRefused() {
    registering(new OptionalPrimitive())
        .hasMessageContaining(
            OptionalPrimitive.class.getName()
                + ".run: parameter count is optional but of primitive type int");
  }

  public static final class DuplicateParameterNames {
    @McpTool
    public String run(@McpParam(name = "x") String a, @McpParam(name = "x") String b) {
      return "x";
    }
  }

  @Test
  void twoParametersWithOneNameAreRefused() {
    registering(new DuplicateParameterNames())
        .hasMessageContaining(
            DuplicateParameterNames.class.getName() + ".run: two parameters are named x");
  }

  public static final class TwoKinds {
    @McpTool
    @McpPrompt
    public String run() {
      return "x";
    }
  }

  @Test
  void aMethodWithTwoKindsIsRefused() {
    registering(new TwoKinds())
        .hasMessageContaining(TwoKinds.class.getName() + ".run: has [@McpTool, @McpPrompt]");
  }

  public static final class Plain {
    public String run() {
      return "x";
    }
  }

  @Test
  void anObjectWithNoAnnotatedMethodIsRefused() {
    registering(new Plain())
        .hasMessageContaining(Plain.class.getName() + ": has no method annotated");
    assertThat(McpAnnotations.declaresEntries(Plain.class)).isFalse();
    assertThat(McpAnnotations.declaresEntries(Echo.class)).isTrue();
  }

  public static final class TemplateVariableWithoutParameter {
    @McpResourceTemplate(uriTemplate = "demo://users/{id}/posts/{post}")
    public String read(String id) {
      return id;
    }
  }

  @Test
  void aTemplateVariableWithoutAParameterIsRefused() {
    registering(new TemplateVariableWithoutParameter())
        .hasMessageContaining(
            TemplateVariableWithoutParameter.class.getName()
                + ".read: template variable {post} of demo://users/{id}/posts/{post} has no parameter");
  }

  public static final class ParameterWithoutTemplateVariable {
    @McpResourceTemplate(uriTemplate = "demo://users/{id}")
    public String read(String id, String extra) {
      return id;
    }
  }

  @Test
  void aTemplateParameterWithoutAVariableIsRefused() {
    registering(new ParameterWithoutTemplateVariable())
        .hasMessageContaining(
            ParameterWithoutTemplateVariable.class.getName()
                + ".read: parameter extra is not a variable of demo://users/{id}");
  }

  public static final class UnsupportedVariableType {
    @McpResourceTemplate(uriTemplate = "demo://users/{id}")
    public String read(double id) {
      return "x";
    }
  }

  @Test
  void aTemplateVariableOfAnUnsupportedTypeIsRefused() {
    registering(new UnsupportedVariableType())
        .hasMessageContaining(
            UnsupportedVariableType.class.getName() + ".read: parameter id is a double");
  }

  public static final class BadTemplate {
    @McpResourceTemplate(uriTemplate = "demo://users/{+id}")
    public String read(String id) {
      return "x";
    }
  }

  @Test
  void aTemplateBeyondLevelOneIsRefused() {
    registering(new BadTemplate())
        .hasMessageContaining(BadTemplate.class.getName() + ".read: ")
        .hasMessageContaining("level-1");
  }

  public static final class ResourceWithArgument {
    @McpResource(uri = "demo://x")
    public String read(String id) {
      return "x";
    }
  }

  @Test
  void aFixedResourceWithAnArgumentIsRefused() {
    registering(new ResourceWithArgument())
        .hasMessageContaining(
            ResourceWithArgument.class.getName() + ".read: parameter id has nothing to bind to");
  }

  public static final class ResourceReturningInt {
    @McpResource(uri = "demo://x")
    public int read() {
      return 1;
    }
  }

  @Test
  void aResourceOfAnUnsupportedReturnTypeIsRefused() {
    registering(new ResourceReturningInt())
        .hasMessageContaining(ResourceReturningInt.class.getName() + ".read: cannot return int");
  }

  public static final class PromptWithNumber {
    @McpPrompt
    public String greet(int times) {
      return "x";
    }
  }

  @Test
  void aPromptArgumentThatIsNotAStringIsRefused() {
    registering(new PromptWithNumber())
        .hasMessageContaining(
            PromptWithNumber.class.getName()
                + ".greet: parameter times is a int, but prompt arguments are strings");
  }

  public static final class PromptReturningInt {
    @McpPrompt
    public int greet() {
      return 1;
    }
  }

  @Test
  void aPromptOfAnUnsupportedReturnTypeIsRefused() {
    registering(new PromptReturningInt())
        .hasMessageContaining(PromptReturningInt.class.getName() + ".greet: cannot return int");
  }

  public static final class TwoPromptsOneName {
    @McpPrompt(name = "p")
    public String a() {
      return "a";
    }

    @McpPrompt(name = "p")
    public String b(Optional<String> x) {
      return "b";
    }
  }

  @Test
  void twoPromptsWithOneNameAreRefused() {
    registering(new TwoPromptsOneName()).hasMessageContaining("prompt p is already declared by");
  }

  public static final class Many {
    @McpTool
    public String a(Thread t) {
      return "a";
    }

    @McpTool
    String b() {
      return "b";
    }
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    registering(new Many())
        .hasMessageStartingWith("annotated entries cannot be registered (2 problems)")
        .hasMessageContaining(Many.class.getName() + ".a: parameter t")
        .hasMessageContaining(Many.class.getName() + ".b: is not public");
  }

  @Test
  void nothingIsRegisteredWhenTheScanFindsAProblem() {
    McpServer.Builder b = McpServer.builder();
    assertThatThrownBy(() -> b.annotated(new Echo(), new Many()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(b.annotated(new Echo()).build().tools())
        .extracting(Tool::name)
        .containsExactly("echo");
  }

  @Test
  void parametersWithoutNamesInTheClassFileAreRefusedSayingHowToName(@TempDir Path dir)
      throws Exception {
    Path source = dir.resolve("NoNames.java");
    Files.writeString(
        source,
        """
        public class NoNames {
          @dev.herald.server.annotation.McpTool
          public String run(String text) { return text; }

          @dev.herald.server.annotation.McpTool
          public String named(@dev.herald.server.annotation.McpParam(name = "text") String text) {
            return text;
          }
        }
        """);
    // javac without -parameters, in its own process
    Process javac =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-d",
                dir.toString(),
                "-cp",
                Path.of("target/classes").toAbsolutePath().toString(),
                source.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(javac.waitFor()).as(output).isZero();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      Object bean = loader.loadClass("NoNames").getConstructor().newInstance();

      registering(bean)
          .hasMessageContaining("(1 problem)")
          .hasMessageContaining(
              "NoNames.run: parameter arg0 has no name: compile with javac -parameters, or name it"
                  + " with @McpParam(name = ...)");
    }
  }
}
