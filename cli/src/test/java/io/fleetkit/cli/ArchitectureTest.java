package io.fleetkit.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/architecture.md, checked with ArchUnit on the compiled main classes of every module
 * (the CLI's test classpath holds them all): no module reaches into another module's {@code ..internal..} packages;
 * core-api depends on no other FleetKit module; the engines never depend on adapters, the CLI, the lab, benchmarks
 * or samples; no two packages depend on each other, directly or through others, except the cycles listed in
 * {@link #KNOWN_CYCLES}.
 */
final class ArchitectureTest {
  /** Each module's root package; every FleetKit class belongs to exactly one. */
  static final Map<String, String> MODULES = new LinkedHashMap<>();

  static {
    MODULES.put("io.fleetkit.api", "core-api");
    MODULES.put("io.fleetkit.admission", "admission");
    MODULES.put("io.fleetkit.observability", "observability");
    MODULES.put("io.fleetkit.scheduler", "scheduler-engine");
    MODULES.put("io.fleetkit.reconcile", "reconcile");
    MODULES.put("io.fleetkit.queueing", "queueing");
    MODULES.put("io.fleetkit.autoscale", "autoscale");
    MODULES.put("io.fleetkit.storage", "storage-binding");
    MODULES.put("io.fleetkit.optimizer", "optimizer");
    MODULES.put("io.fleetkit.networking", "networking");
    MODULES.put("io.fleetkit.simulator", "simulator");
    MODULES.put("io.fleetkit.adapter.kubernetes", "adapters/kubernetes");
    MODULES.put("io.fleetkit.adapter.slurm", "adapters/slurm");
    MODULES.put("io.fleetkit.store.etcd", "store-etcd");
    MODULES.put("io.fleetkit.cluster", "cluster");
    MODULES.put("io.fleetkit.lab", "lab");
    MODULES.put("io.fleetkit.traces", "traces");
    MODULES.put("io.fleetkit.cli", "cli");
  }

  /** Engine root packages: they depend on core-api and on each other, never on the outer modules. */
  private static final List<String> ENGINES = List.of("io.fleetkit.admission", "io.fleetkit.observability",
      "io.fleetkit.scheduler",
      "io.fleetkit.reconcile", "io.fleetkit.queueing",
      "io.fleetkit.autoscale", "io.fleetkit.storage", "io.fleetkit.optimizer", "io.fleetkit.networking");

  /**
   * Package cycles that exist today, each as the sorted set of packages that depend on each other (without the
   * {@code io.fleetkit.} prefix). A new cycle, or a new package joining one, fails
   * {@link #packages_haveNoCyclesBeyondTheKnownOnes}: break it (move the shared type down, or invert with an
   * interface) rather than listing it here. Most are a public package and its {@code internal} implementation: the
   * public façade or builder creates the implementation, which implements or returns the public types; breaking
   * them needs a service lookup or a third package for the factory, which buys nothing inside one module.
   * core-api's are the kinds' shared rule helpers ({@code Violations}, {@code internal.PodSpecChecks}) reading the
   * kinds they check, and the store's admission SPI, which the store calls and whose attributes name the store's
   * types; storage's is the binder and the provisioner calling each other.
   */
  static final List<String> KNOWN_CYCLES = List.of(
      "adapter.kubernetes.yaml adapter.kubernetes.yaml.internal adapter.kubernetes.yaml.internal.kinds",
      "adapter.slurm adapter.slurm.internal",
      "api api.core api.internal api.labels api.scheduling",
      "api.admission api.store api.store.internal api.store.spi",
      "queueing queueing.internal",
      "reconcile reconcile.internal",
      "reconcile.controllers reconcile.controllers.internal",
      "reconcile.rollouts reconcile.rollouts.internal",
      "scheduler scheduler.internal",
      "storage storage.provision");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // FleetKit's main classes as the CLI's test classpath holds them: the reactor's output (target/classes under
    // `mvn test`, the modules' target/*.jar under `mvn verify`), or the modules' installed jars when the CLI module is
    // built alone (`-pl cli`, from whichever local repository: its io/fleetkit/fleetkit-* folders); never test classes
    // or test jars.
    ImportOption reactorMainClasses = location -> (location.contains("/target/")
        || location.contains("/io/fleetkit/fleetkit-")) && !location.contains("-tests.jar");
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(reactorMainClasses).importPackages("io.fleetkit");
  }

  static Optional<String> moduleOf(String packageName) {
    return MODULES.keySet().stream().filter(root -> packageName.equals(root) || packageName.startsWith(root + "."))
        .findFirst().map(MODULES::get);
  }

  private static boolean isInternal(String packageName) {
    return packageName.contains(".internal.") || packageName.endsWith(".internal");
  }

  @Test
  void everyClass_belongsToAKnownModule() {
    assertThat(classes.size()).as("imported classes").isGreaterThan(500);
    List<String> unknown = classes.stream().map(JavaClass::getPackageName)
        .filter(p -> moduleOf(p).isEmpty()).distinct().toList();
    assertThat(unknown).as("packages of no module in ArchitectureTest.MODULES").isEmpty();
    for (String module : List.of("core-api", "admission", "scheduler-engine", "reconcile", "queueing", "autoscale",
        "storage-binding", "optimizer", "networking", "simulator", "adapters/kubernetes", "adapters/slurm", "cluster",
        "lab")) {
      assertThat(classes.stream().anyMatch(c -> moduleOf(c.getPackageName()).orElse("").equals(module)))
          .as("classes of %s on the test classpath", module).isTrue();
    }
  }

  @Test
  void noModule_accessesAnotherModulesInternals() {
    ArchCondition<JavaClass> condition = new ArchCondition<>("not depend on another module's ..internal.. package") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        String own = moduleOf(c.getPackageName()).orElse("?");
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getPackageName();
          Optional<String> module = moduleOf(target);
          if (isInternal(target) && module.isPresent() && !module.get().equals(own)) {
            events.add(SimpleConditionEvent.violated(d, own + ": " + d.getDescription()));
          }
        }
      }
    };
    classes().that().resideInAPackage("io.fleetkit..").should(condition).check(classes);
  }

  @Test
  void coreApi_dependsOnNoOtherFleetKitModule() {
    noClasses().that().resideInAPackage("io.fleetkit.api..").should().dependOnClassesThat(
        DescribedPredicate.describe("are FleetKit classes outside io.fleetkit.api",
            (JavaClass t) -> t.getPackageName().startsWith("io.fleetkit.")
                && !t.getPackageName().startsWith("io.fleetkit.api")))
        .check(classes);
    classes().that().resideInAPackage("io.fleetkit.api..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("io.fleetkit.api..", "java..", "org.jspecify..", "org.slf4j..", "")
        .check(classes);
  }

  @Test
  void engines_neverDependOnAdaptersCliLabBenchmarksOrSamples() {
    noClasses().that().resideInAnyPackage(ENGINES.stream().map(p -> p + "..").toArray(String[]::new))
        .should().dependOnClassesThat().resideInAnyPackage("io.fleetkit.adapter..", "io.fleetkit.cli..",
            "io.fleetkit.lab..", "io.fleetkit.benchmarks..", "io.fleetkit.samples..")
        .check(classes);
  }

  /** Packages that depend on each other (strongly connected components of the package graph, size > 1). */
  static List<String> packageCycles(JavaClasses all) {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (JavaClass c : all) {
      Set<String> out = graph.computeIfAbsent(c.getPackageName(), k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String t = d.getTargetClass().getPackageName();
        if (t.startsWith("io.fleetkit.") && !t.equals(c.getPackageName())) {
          out.add(t);
        }
      }
    }
    // Tarjan's strongly connected components.
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<String> cycles = new ArrayList<>();
    int[] counter = {0};
    for (String v : graph.keySet()) {
      if (!index.containsKey(v)) {
        strongConnect(v, graph, index, low, stack, onStack, cycles, counter);
      }
    }
    Collections.sort(cycles);
    return cycles;
  }

  private static void strongConnect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<String> cycles, int[] counter) {
    index.put(v, counter[0]);
    low.put(v, counter[0]++);
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        strongConnect(w, graph, index, low, stack, onStack, cycles, counter);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      TreeSet<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w.substring("io.fleetkit.".length()));
      } while (!w.equals(v));
      if (component.size() > 1) {
        cycles.add(String.join(" ", component));
      }
    }
  }

  @Test
  void packages_haveNoCyclesBeyondTheKnownOnes() {
    List<String> cycles = packageCycles(classes);
    assertThat(cycles).as("package cycles (each: the packages that depend on each other)")
        .allMatch(KNOWN_CYCLES::contains, "listed in ArchitectureTest.KNOWN_CYCLES");
    assertThat(KNOWN_CYCLES).as("known cycles that no longer exist: remove them from the list")
        .allMatch(cycles::contains);
  }
}
