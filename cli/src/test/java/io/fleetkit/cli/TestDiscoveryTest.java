package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every test class runs in the build: Surefire runs only classes whose file name matches its default includes
 * ({@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}), so a class of JUnit or jqwik tests named
 * otherwise compiles and is silently never run. Interfaces (the store contracts, run through the classes that
 * implement them) and abstract classes are exempt.
 */
final class TestDiscoveryTest {
  private static final Pattern TEST_ANNOTATION = Pattern.compile(
      "^\\s*@(Test|Property|Example|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\\b", Pattern.MULTILINE);
  private static final Pattern RUN_BY_SUREFIRE = Pattern.compile("(Test.*|.*Test|.*Tests|.*TestCase)\\.java");
  private static final Pattern NOT_RUN_ITSELF =
      Pattern.compile("^(public\\s+)?(sealed\\s+)?(interface|abstract\\s+class)\\s", Pattern.MULTILINE);

  @Test
  void everyClassWithTests_isNamedSoThatSurefireRunsIt() throws IOException {
    Path root = CliHarness.root();
    List<String> unnamed = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(TestDiscoveryTest::isTestSource).toList()) {
        String text = read(f);
        if (TEST_ANNOTATION.matcher(text).find() && !NOT_RUN_ITSELF.matcher(text).find()
            && !RUN_BY_SUREFIRE.matcher(f.getFileName().toString()).matches()) {
          unnamed.add(root.relativize(f).toString());
        }
      }
    }
    assertThat(unnamed).as("test classes Surefire would not run (rename to *Test)").isEmpty();
  }

  @Test
  void theCheck_findsAClassNamedOtherwise() {
    assertThat(RUN_BY_SUREFIRE.matcher("ReplicaNormalizerProperties.java").matches()).isFalse();
    assertThat(RUN_BY_SUREFIRE.matcher("ReplicaNormalizerPropertyTest.java").matches()).isTrue();
    assertThat(TEST_ANNOTATION.matcher("final class X {\n  @Property\n  void p() {}\n}").find()).isTrue();
    assertThat(NOT_RUN_ITSELF.matcher("public interface ObjectStoreCrudContract {").find()).isTrue();
  }

  private static boolean isTestSource(Path f) {
    String s = f.toString().replace('\\', '/');
    return s.endsWith(".java") && s.contains("/src/test/java/") && !s.contains("/target/") && !s.contains("/.git/");
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
