package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.FreshJvm;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Up to its {@code initialize} answer, a stdio server starts no {@code java.util.logging}, links
 * no type switch and no record's generated {@code equals}/{@code hashCode}: each of them costs a
 * cold process tens of milliseconds (the JVM spins classes for them, which no AOT cache keeps;
 * docs/benchmarks.md, "Cold start"). Checked in a fresh JVM from its class initialisation log,
 * with the same three things done by the child afterwards to show that the check sees them.
 */
@Timeout(120)
class FirstAnswerWithoutSpunClassesTest {
  private static final String ANSWERED = "-- initialize answered --";
  private static final String CONTROL = "-- control done --";

  @Test
  void aFreshServerProcessAnswersInitializeWithoutLoggingSetUpOrSpunClasses() throws Exception {
    String out =
        FreshJvm.run(Child.class, List.of("-Xlog:disable", "-Xlog:class+init=info:stdout"));
    assertThat(out).contains("\"protocolVersion\":\"2025-11-25\"").contains(ANSWERED, CONTROL);
    String before = out.substring(0, out.indexOf(ANSWERED));
    String control = out.substring(out.indexOf(ANSWERED), out.indexOf(CONTROL));
    for (String spun : spunClasses()) {
      assertThat(linesWith(before, spun)).as("before the answer").isEmpty();
      assertThat(linesWith(control, spun))
          .as("the control step")
          .isNotEmpty(); // the check can tell
    }
  }

  /** How the class initialisation log shows each of the three. */
  private static List<String> spunClasses() {
    return List.of(
        "'java/util/logging/LogManager'", "$$TypeSwitch", "'java/lang/runtime/ObjectMethods'");
  }

  private static List<String> linesWith(String log, String text) {
    return log.lines().filter(l -> l.contains(text)).toList();
  }

  /** Serves one session over pipes; marks the answer in its output, then does the three itself. */
  public static final class Child {
    record Pair(int a, int b) {}

    public static void main(String[] args) throws Exception {
      System.out.println(new FreshJvm.PipedEchoServer().initialize());
      System.out.println(ANSWERED);
      System.out.flush();
      // the control: each of the three, which the log must show after the mark
      System.getLogger("cold").isLoggable(System.Logger.Level.INFO);
      Object o = args.length == 0 ? new Pair(1, 2) : "x";
      String kind =
          switch (o) {
            case Pair p -> "pair " + p.hashCode();
            case String s -> s;
            default -> "other";
          };
      System.out.println(kind.isEmpty() ? "" : CONTROL);
      System.out.flush();
      System.exit(0);
    }
  }
}
