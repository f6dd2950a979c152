package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What Maven consumers get: fleetkit-bom lists every published module of the reactor at the reactor's version, and
 * every module names its jar's {@code Automatic-Module-Name} ({@code fleetkit.module.name}).
 */
final class PublishedArtifactsTest {
  /** Reactor modules that are not published artifacts. */
  private static final List<String> UNPUBLISHED = List.of("bom", "benchmarks");

  private static Path root() {
    return CliHarness.root();
  }

  private static List<String> modules() throws IOException {
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(root().resolve("pom.xml")));
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static String artifactId(String pom) {
    Matcher m = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>").matcher(pom);
    assertThat(m.find()).isTrue();
    return m.group(1);
  }

  @Test
  void bom_listsEveryPublishedModuleAtTheProjectVersion() throws IOException {
    String bom = Files.readString(root().resolve("bom/pom.xml"));
    assertThat(bom).contains("<version>" + SamplesTest.rootVersion() + "</version>");
    List<String> published = new ArrayList<>();
    for (String module : modules()) {
      if (!UNPUBLISHED.contains(module)) {
        published.add(artifactId(Files.readString(root().resolve(module).resolve("pom.xml"))));
      }
    }
    assertThat(published).hasSizeGreaterThanOrEqualTo(10);
    for (String artifact : published) {
      assertThat(bom).as("fleetkit-bom lists %s", artifact)
          .containsPattern("<artifactId>" + artifact + "</artifactId><version>\\$\\{project.version}</version>");
    }
  }

  @Test
  void everyModule_namesItsAutomaticModuleName() throws IOException {
    List<String> names = new ArrayList<>();
    for (String module : modules()) {
      if (module.equals("bom")) {
        continue;
      }
      Matcher m = Pattern.compile("<fleetkit.module.name>([^<]+)</fleetkit.module.name>")
          .matcher(Files.readString(root().resolve(module).resolve("pom.xml")));
      assertThat(m.find()).as("%s/pom.xml sets fleetkit.module.name", module).isTrue();
      assertThat(m.group(1)).as(module).matches("io\\.fleetkit(\\.[a-z]+)+");
      names.add(m.group(1));
    }
    assertThat(names).doesNotHaveDuplicates().contains("io.fleetkit.core", "io.fleetkit.scheduler");
  }
}
