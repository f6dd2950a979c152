package io.fleetkit.store.etcd.internal;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.LeaderLease;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The kinds an etcd store of this module can hold (every record implementing {@link ApiObject} in core-api, and the
 * reconcile module's {@link LeaderLease}), found on the class path so that a kind added later is tested too, and
 * objects of them made reflectively from seeded random values: each record through its canonical constructor, which
 * validates, so that a value the kind refuses is drawn again.
 */
final class StoredKinds {
  private static final String[] STRINGS = {"a", "web-0", "default", "b.example.com", "example.com/ctrl", "1", ""};
  private static final int ATTEMPTS = 60;

  private StoredKinds() {}

  /** Every stored kind, sorted by simple name. */
  static List<Class<?>> all() {
    Set<Class<?>> kinds = new HashSet<>();
    kinds.addAll(recordsImplementingApiObject(ApiObject.class));
    kinds.addAll(recordsImplementingApiObject(LeaderLease.class));
    List<Class<?>> sorted = new ArrayList<>(kinds);
    sorted.sort(Comparator.comparing(Class::getSimpleName));
    return sorted;
  }

  private static List<Class<?>> recordsImplementingApiObject(Class<?> anchor) {
    Path where;
    try {
      where = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<String> names = new ArrayList<>();
    try {
      if (Files.isDirectory(where)) {
        try (Stream<Path> files = Files.walk(where)) {
          files.filter(p -> p.toString().endsWith(".class"))
              .forEach(p -> names.add(where.relativize(p).toString().replace('\\', '/')));
        }
      } else {
        try (JarFile jar = new JarFile(where.toFile())) {
          for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            names.add(e.nextElement().getName());
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + where, e);
    }
    List<Class<?>> kinds = new ArrayList<>();
    for (String n : names) {
      if (!n.endsWith(".class") || n.contains("-info")) {
        continue;
      }
      Class<?> c;
      try {
        c = Class.forName(n.substring(0, n.length() - ".class".length()).replace('/', '.'), false,
            StoredKinds.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        continue;
      }
      if (c.isRecord() && ApiObject.class.isAssignableFrom(c) && Modifier.isPublic(c.getModifiers())) {
        kinds.add(c);
      }
    }
    return kinds;
  }

  /**
   * An object of {@code kind} from {@code random}: rich (collections with elements, optional parts set) when
   * {@code rich}, else as plain as the kind allows; {@code null} if no valid object was drawn.
   */
  static @Nullable Object sample(Class<?> kind, Random random, boolean rich) {
    return new Maker(random).record(kind, 0, rich);
  }

  private static final class Maker {
    private final Random random;

    Maker(Random random) {
      this.random = random;
    }

    @Nullable Object record(Class<?> type, int depth, boolean rich) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
      }
      Constructor<?> canonical;
      try {
        canonical = type.getDeclaredConstructor(types);
        canonical.setAccessible(true);
      } catch (NoSuchMethodException | RuntimeException e) {
        return null;
      }
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        // the first half of the attempts rich (if asked), then plain: a kind with many rules is found plain
        boolean r = rich && attempt < ATTEMPTS / 2 && depth < 5;
        Object[] args = new Object[components.length];
        boolean ok = true;
        for (int i = 0; i < components.length && ok; i++) {
          boolean nullable = components[i].getAnnotatedType().isAnnotationPresent(Nullable.class);
          if (nullable && (!r || random.nextInt(3) == 0)) {
            args[i] = null;
            continue;
          }
          args[i] = value(components[i].getGenericType(), depth + 1, r, attempt);
          ok = args[i] != null || nullable;
        }
        if (!ok) {
          continue;
        }
        try {
          return canonical.newInstance(args);
        } catch (InvocationTargetException | IllegalArgumentException e) {
          // refused by the record's rules: draw again
        } catch (ReflectiveOperationException e) {
          return null;
        }
      }
      return null;
    }

    @Nullable Object value(Type type, int depth, boolean rich, int attempt) {
      if (type instanceof WildcardType w) {
        return value(w.getUpperBounds()[0], depth, rich, attempt);
      }
      if (type instanceof ParameterizedType p) {
        Class<?> raw = (Class<?>) p.getRawType();
        Type[] args = p.getActualTypeArguments();
        int n = rich ? random.nextInt(3) : 0;
        if (List.class.isAssignableFrom(raw) || Set.class.isAssignableFrom(raw)) {
          List<Object> l = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            Object e = value(args[0], depth + 1, rich, attempt);
            if (e != null && !l.contains(e)) {
              l.add(e);
            }
          }
          return Set.class.isAssignableFrom(raw) ? Set.copyOf(l) : List.copyOf(l);
        }
        if (Map.class.isAssignableFrom(raw)) {
          Map<Object, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            Object k = value(args[0], depth + 1, rich, attempt);
            Object v = value(args[1], depth + 1, rich, attempt);
            if (k != null && v != null) {
              m.put(k, v);
            }
          }
          return Map.copyOf(m);
        }
        return null;
      }
      Class<?> c = (Class<?>) type;
      boolean plain = !rich;
      if (c == String.class) {
        return plain && attempt % 2 == 0 ? "a" : STRINGS[random.nextInt(STRINGS.length)];
      }
      if (c == int.class || c == Integer.class) {
        return plain ? attempt % 3 : random.nextInt(4);
      }
      if (c == long.class || c == Long.class) {
        return (long) (plain ? attempt % 3 : random.nextInt(4));
      }
      if (c == double.class || c == Double.class) {
        return plain ? 0.5 : random.nextInt(100) / 100.0;
      }
      if (c == float.class || c == Float.class) {
        return plain ? 0.5f : random.nextInt(100) / 100.0f;
      }
      if (c == boolean.class || c == Boolean.class) {
        return !plain && random.nextBoolean();
      }
      if (c == Duration.class) {
        return Duration.ofSeconds(plain ? 1 : 1 + random.nextInt(60));
      }
      if (c == Instant.class) {
        return Instant.ofEpochSecond(1_700_000_000L + (plain ? 0 : random.nextInt(1000)));
      }
      if (c == Quantity.class) {
        return Quantity.parse(plain ? "1" : List.of("1", "500m", "2Gi").get(random.nextInt(3)));
      }
      if (c == ResourceList.class) {
        return plain || random.nextBoolean() ? ResourceList.of(Map.of())
            : ResourceList.of(Map.of("cpu", Quantity.parse("500m"), "memory", Quantity.parse("1Gi")));
      }
      if (c == Bytes.class) {
        return Bytes.ofUtf8(plain ? "a" : "v" + random.nextInt(10));
      }
      if (c.isEnum()) {
        Object[] constants = c.getEnumConstants();
        return constants[plain ? attempt % constants.length : random.nextInt(constants.length)];
      }
      if (c.isRecord()) {
        return depth > 12 ? null : record(c, depth, rich);
      }
      if (c.isSealed()) {
        Class<?>[] subs = c.getPermittedSubclasses();
        for (int i = 0; i < subs.length; i++) {
          Class<?> s = subs[(random.nextInt(subs.length) + i) % subs.length];
          Object o = s.isRecord() ? record(s, depth, rich) : s.isSealed() ? value(s, depth, rich, attempt) : null;
          if (o != null) {
            return o;
          }
        }
        return null;
      }
      return null;
    }
  }
}
