package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.cluster.Cluster;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.simulator.Simulation;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code src-samples/} is what an embedder copies: a consumer project of its own (its pom imports fleetkit-bom).
 * This test compiles its sources against the freshly built core-api, scheduler-engine, reconcile, simulator and
 * cluster jars only (the dependencies its pom declares), checks they touch no {@code internal} package, and runs each
 * sample. It also compiles and runs the README's Java snippet.
 */
final class SamplesTest {
  @TempDir static Path out;
  private static URLClassLoader loader;

  private static Path root() {
    return CliHarness.root();
  }

  /** The jars (or class folders) of the six artifacts the samples' pom declares, and of their dependencies. */
  private static String libraryClasspath() {
    List<String> parts = new ArrayList<>();
    for (Class<?> anchor : List.of(Node.class, Scheduler.class, Controller.class, Simulation.class, Cluster.class,
        io.fleetkit.networking.loadbalancer.ServiceLoadBalancerController.class, org.jspecify.annotations.Nullable.class, org.slf4j.Logger.class)) {
      parts.add(Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
    }
    return String.join(File.pathSeparator, parts);
  }

  private static List<String> compile(List<Path> sources, Path into) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      StringWriter log = new StringWriter();
      boolean ok = javac.getTask(log, files, diagnostics, List.of("--release", "17", "-Xlint:all", "-Werror",
          "-classpath", libraryClasspath(), "-d", into.toString()), null,
          files.getJavaFileObjectsFromPaths(sources)).call();
      List<String> problems = new ArrayList<>();
      diagnostics.getDiagnostics().forEach(d -> problems.add(d.getKind() + " " + d.getSource() + ":"
          + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT)));
      if (!ok && problems.isEmpty()) {
        problems.add(log.toString());
      }
      return problems;
    }
  }

  private static List<Path> sampleSources() throws IOException {
    try (Stream<Path> walk = Files.walk(root().resolve("src-samples/src/main/java"))) {
      return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  @BeforeAll
  static void compileSamples() throws IOException {
    Path classes = Files.createDirectories(out.resolve("samples"));
    assertThat(compile(sampleSources(), classes)).as("compiling src-samples").isEmpty();
    loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, SamplesTest.class.getClassLoader());
  }

  private static String runMain(ClassLoader cl, String className) throws Exception {
    Method main = cl.loadClass(className).getMethod("main", String[].class);
    PrintStream saved = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      main.invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(saved);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void samples_importNoInternalPackage() throws IOException {
    Pattern internal = Pattern.compile("^import\\s+(?:static\\s+)?io\\.fleetkit\\.[\\w.]*internal\\b", Pattern.MULTILINE);
    List<Path> sources = sampleSources();
    assertThat(sources).hasSizeGreaterThanOrEqualTo(7);
    for (Path f : sources) {
      assertThat(internal.matcher(Files.readString(f)).find()).as(f.toString()).isFalse();
    }
  }

  @Test
  void customFilterSample_placesPodsOnlyOnAllowedRacks() throws Exception {
    String printed = runMain(loader, "com.example.fleetkit.CustomFilterSample");
    assertThat(printed).contains("default/rack-two -> node-2");
    assertThat(printed).containsPattern("default/anywhere -> node-[123]");
    assertThat(printed).contains("default/rack-nine -> 0/3 nodes are available: 3 node(s) not in the pod's allowed racks");
  }

  @Test
  void customReconcilerSample_cordonsTheLabelledNodeThenUncordonsIt() throws Exception {
    String printed = runMain(loader, "com.example.fleetkit.CustomReconcilerSample");
    assertThat(printed.lines().toList()).containsExactly("node-a unschedulable=false", "node-b unschedulable=true",
        "node-a unschedulable=false", "node-b unschedulable=false");
  }

  @Test
  void simulationSample_healsTheDeploymentAfterTheNodeFailure() throws Exception {
    String printed = runMain(loader, "com.example.fleetkit.SimulationSample");
    assertThat(printed).contains("default/web ready 6/6 after PT15M");
  }

  @Test
  void cloudLoadBalancerSample_ensuresUpdatesAndDeletesTheCloudsLoadBalancer() throws Exception {
    String printed = runMain(loader, "com.example.fleetkit.CloudLoadBalancerSample");
    assertThat(printed.lines().toList()).containsExactly(
        "shop/web at 198.51.100.10; cloud load balancers [[node-a, node-b]]",
        "shop/web at 198.51.100.10; cloud load balancers [[node-a]]",
        "shop/web deleted; cloud load balancers []");
  }

  @Test
  void scheduleManifestsSample_placesTwoAndExplainsTheThird() throws Exception {
    String printed = runMain(loader, "com.example.fleetkit.ScheduleManifestsSample");
    assertThat(printed).contains("default/api -> node-1").containsPattern("default/worker -> node-[12]");
    assertThat(printed).contains("default/huge -> 0/2 nodes are available: 2 Insufficient cpu.");
  }

  @Test
  void samplesPom_importsTheBomOfThisVersionAndDeclaresOnlyBomArtifacts() throws IOException {
    String pom = Files.readString(root().resolve("src-samples/pom.xml"));
    String version = rootVersion();
    assertThat(pom).contains("<fleetkit.version>" + version + "</fleetkit.version>");
    assertThat(pom).containsPattern("<artifactId>fleetkit-bom</artifactId>\\s*<version>\\$\\{fleetkit.version}"
        + "</version>\\s*<type>pom</type>\\s*<scope>import</scope>");
    assertThat(pom).doesNotContain("<parent>");
    String bom = Files.readString(root().resolve("bom/pom.xml"));
    Matcher deps = Pattern.compile("<dependency><groupId>io\\.fleetkit</groupId><artifactId>([\\w-]+)</artifactId>"
        + "</dependency>").matcher(pom);
    int n = 0;
    while (deps.find()) {
      n++;
      assertThat(bom).contains("<artifactId>" + deps.group(1) + "</artifactId>");
    }
    assertThat(n).as("artifacts the samples declare, each anchored in libraryClasspath()").isEqualTo(6);
  }

  static String rootVersion() throws IOException {
    Matcher m = Pattern.compile("<artifactId>fleetkit-parent</artifactId>\\s*<version>([^<]+)</version>")
        .matcher(Files.readString(root().resolve("pom.xml")));
    assertThat(m.find()).isTrue();
    return m.group(1);
  }

  @Test
  void readmeSnippet_compilesAndSchedules() throws Exception {
    String readme = Files.readString(root().resolve("README.md"));
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find()).as("a ```java block in README.md").isTrue();
    Path src = Files.createDirectories(out.resolve("readme/src/readme"));
    Files.writeString(src.resolve("ReadmeSnippet.java"), """
        package readme;

        import io.fleetkit.api.core.Node;
        import io.fleetkit.api.core.Pod;
        import io.fleetkit.scheduler.ScheduleResult;
        import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.simulator.Simulation;
        import java.util.List;

        public final class ReadmeSnippet {
          public static void run(List<Node> nodes, List<Pod> pods) {
        %s
          }
        }
        """.formatted(block.group(1)));
    Path classes = Files.createDirectories(out.resolve("readme/classes"));
    assertThat(compile(List.of(src.resolve("ReadmeSnippet.java")), classes)).as("compiling README's snippet").isEmpty();
    try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method run = cl.loadClass("readme.ReadmeSnippet").getMethod("run", List.class, List.class);
      List<Node> nodes = List.of(Node.builder().name("n1")
          .capacity(ResourceList.builder().put("cpu", "2").put("memory", "4Gi").put("pods", "110").build())
          .ready().build());
      List<Pod> pods = List.of(Pod.builder().namespace("default").name("p1")
          .container("c", "img", ResourceList.ofCpuMemory(1000, 0)).build());
      PrintStream saved = System.out;
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
      try {
        run.invoke(null, nodes, pods);
      } finally {
        System.setOut(saved);
      }
      assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("default/p1 -> n1" + System.lineSeparator());
    }
  }
}
