package dev.herald;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The line between herald-core's API and its engine: module-info exports the internal packages
 * only to named Herald modules, and nothing a user can reach from an exported package (public or
 * protected members of public types) names a type of an internal package.
 */
class ApiLineTest {
  private static final Path MODULE_INFO = Path.of("src/main/java/module-info.java");
  private static final Path CLASSES = Path.of("target/classes");
  private static final Pattern EXPORT =
      Pattern.compile("^\\s*exports ([\\w.]+)\\s*(;|to\\b)", Pattern.MULTILINE);

  @Test
  void internalPackagesAreExportedOnlyToNamedModules() throws IOException {
    Set<String> unqualified = new TreeSet<>();
    Set<String> qualified = new TreeSet<>();
    Matcher m = EXPORT.matcher(Files.readString(MODULE_INFO));
    while (m.find()) {
      (m.group(2).equals(";") ? unqualified : qualified).add(m.group(1));
    }

    assertThat(unqualified).noneMatch(p -> p.contains(".internal"));
    assertThat(qualified).allMatch(p -> p.contains(".internal"));
  }

  @Test
  void noPublicMemberOfAnExportedTypeNamesAnInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (String pkg : exportedPackages()) {
      for (Class<?> type : publicTypes(pkg)) {
        for (Method method : type.getDeclaredMethods()) {
          if (reachable(method.getModifiers())) {
            check(leaks, type, method.getName(), method.toGenericString());
          }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
          if (reachable(constructor.getModifiers())) {
            check(leaks, type, "<init>", constructor.toGenericString());
          }
        }
        for (Field field : type.getDeclaredFields()) {
          if (reachable(field.getModifiers())) {
            check(leaks, type, field.getName(), field.toGenericString());
          }
        }
        if (type.getGenericSuperclass() != null) {
          check(leaks, type, "extends", type.getGenericSuperclass().getTypeName());
        }
        for (var itf : type.getGenericInterfaces()) {
          check(leaks, type, "implements", itf.getTypeName());
        }
      }
    }

    assertThat(leaks).isEmpty();
  }

  private static void check(List<String> leaks, Class<?> type, String member, String signature) {
    if (signature.contains("dev.herald.internal.")) {
      leaks.add(type.getName() + "." + member + ": " + signature);
    }
  }

  private static boolean reachable(int modifiers) {
    return (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers))
        && !Modifier.isPrivate(modifiers);
  }

  private static Set<String> exportedPackages() throws IOException {
    Set<String> packages = new TreeSet<>();
    Matcher m = EXPORT.matcher(Files.readString(MODULE_INFO));
    while (m.find()) {
      if (m.group(2).equals(";")) {
        packages.add(m.group(1));
      }
    }
    assertThat(packages).isNotEmpty();
    return packages;
  }

  /** Public top-level and nested types whose enclosing types are public too, from the compiled classes. */
  private static List<Class<?>> publicTypes(String pkg) throws IOException, ClassNotFoundException {
    Path dir = CLASSES.resolve(pkg.replace('.', '/'));
    List<Class<?>> types = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        String simple = file.getFileName().toString().replace(".class", "");
        if (simple.equals("package-info")) {
          continue;
        }
        Class<?> type =
            Class.forName(pkg + "." + simple, false, ApiLineTest.class.getClassLoader());
        if (visible(type)) {
          types.add(type);
        }
      }
    }
    return types;
  }

  private static boolean visible(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isLocalClass()) {
        return false;
      }
    }
    return true;
  }
}
