package io.fleetkit.store.etcd.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Guards the rule that lets a FleetKit read what an older one stored: against the recorded list of every component of
 * every record a stored kind holds ({@code stored-components.txt}), no component is gone (an object stored with it
 * would be refused: a property this version does not know) and no record has gained a component that is required
 * when unset (an object stored before it would be refused: a required property missing). A new record, or a new
 * component with a value when unset, passes; the current list is written to {@code target/stored-components.txt}
 * for refreshing the recorded one.
 */
final class StoredComponentsTest {
  private static final String RECORDED = "stored-components.txt";

  @Test
  void againstTheRecordedComponents_noneRemoved_noRecordGainedARequiredOne() throws IOException {
    Map<String, String> current = current();
    Path written = Path.of("target", RECORDED);
    Files.createDirectories(written.getParent());
    Files.write(written, lines(current), StandardCharsets.UTF_8);

    Map<String, String> recorded = new TreeMap<>();
    try (InputStream in = getClass().getResourceAsStream(RECORDED)) {
      assertThat(in).as(RECORDED).isNotNull();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] parts = line.trim().split(" ");
          recorded.put(parts[0], parts[1]);
        }
      }
    }
    Set<String> recordedRecords = new TreeSet<>();
    recorded.keySet().forEach(c -> recordedRecords.add(c.substring(0, c.lastIndexOf('.'))));

    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> e : recorded.entrySet()) {
      String now = current.get(e.getKey());
      if (now == null) {
        problems.add(e.getKey() + " is gone: objects stored with it would be refused (a property this version does "
            + "not know)");
      } else if (now.equals("required") && e.getValue().equals("unset")) {
        problems.add(e.getKey() + " has become required: objects stored without it would be refused");
      }
    }
    for (Map.Entry<String, String> e : current.entrySet()) {
      String record = e.getKey().substring(0, e.getKey().lastIndexOf('.'));
      if (!recorded.containsKey(e.getKey()) && recordedRecords.contains(record) && e.getValue().equals("required")) {
        problems.add(e.getKey() + " is new and required when unset: objects stored before it would be refused; "
            + "make it @Nullable, a collection or a zero-valued type, or give it the kind's default in UnsetValues");
      }
    }
    assertThat(problems).as("stored components against " + RECORDED + " (the current list is in " + written
        + "; copy it over the recorded one once the change is intended)").isEmpty();
  }

  /** Every component of every record reachable from a stored kind: {@code unset} or {@code required}. */
  static Map<String, String> current() {
    Map<String, String> out = new TreeMap<>();
    Set<Class<?>> seen = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
    List<Class<?>> todo = new ArrayList<>(StoredKinds.all());
    while (!todo.isEmpty()) {
      Class<?> c = todo.remove(todo.size() - 1);
      if (!seen.add(c)) {
        continue;
      }
      if (c.isRecord()) {
        RecordForm f = RecordForm.of(c);
        for (int i = 0; i < f.names.length; i++) {
          out.put(c.getName() + "." + f.names[i], f.unset[i] == UnsetValues.REQUIRED ? "required" : "unset");
          reachable(f.types[i], todo);
        }
      } else if (c.isSealed()) {
        todo.addAll(List.of(c.getPermittedSubclasses()));
      }
    }
    return out;
  }

  private static void reachable(Type t, List<Class<?>> todo) {
    if (t instanceof ParameterizedType p) {
      for (Type a : p.getActualTypeArguments()) {
        reachable(a, todo);
      }
    } else if (t instanceof WildcardType w) {
      reachable(w.getUpperBounds()[0], todo);
    } else if (t instanceof Class<?> c && (c.isRecord() || c.isSealed())) {
      todo.add(c);
    }
  }

  private static List<String> lines(Map<String, String> components) {
    List<String> l = new ArrayList<>();
    l.add("# Every component of every record a stored kind holds, and whether it has a value when unset");
    l.add("# (StoredComponentsTest). Written by the test to target/stored-components.txt.");
    components.forEach((k, v) -> l.add(k + " " + v));
    return l;
  }
}
