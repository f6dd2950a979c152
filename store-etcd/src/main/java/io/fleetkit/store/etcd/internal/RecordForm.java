package io.fleetkit.store.etcd.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * What the codec knows of one record type, found once by reflection: its components' names, index and generic types,
 * the value of each when its stored JSON has none ({@link UnsetValues}), and its canonical constructor. Immutable once
 * built; built under {@link #FORMS}' lock the first time a type is met.
 */
final class RecordForm {
  private static final Map<Class<?>, RecordForm> FORMS = new HashMap<>();

  final Class<?> type;
  final String[] names;
  final Type[] types;
  /** By component: its unset value, or {@link UnsetValues#REQUIRED}. */
  final @Nullable Object[] unset;
  /** By component: whether it is {@code @Nullable}, so that a JSON {@code null} is that value, not "unset". */
  final boolean[] nullable;
  /** Component names to indexes. */
  final Map<String, Integer> index;
  /** Defaults that depend on other components ({@link UnsetValues#dependentDefaults}), or {@code null}. */
  final @Nullable BiConsumer<@Nullable Object[], boolean[]> dependentDefaults;
  /** The canonical constructor taking an {@code Object[]} of the components. */
  private final MethodHandle constructor;
  /**
   * The record with every component unset, or {@link UnsetValues#REQUIRED} if some component is required or the
   * constructor refuses those values: what a component of this type is when unset.
   */
  private @Nullable Object allUnset;

  private RecordForm(Class<?> type) {
    this.type = type;
    RecordComponent[] components = type.getRecordComponents();
    int n = components.length;
    names = new String[n];
    types = new Type[n];
    unset = new Object[n];
    nullable = new boolean[n];
    Map<String, Integer> idx = new HashMap<>();
    Class<?>[] raw = new Class<?>[n];
    for (int i = 0; i < n; i++) {
      names[i] = components[i].getName();
      types[i] = components[i].getGenericType();
      raw[i] = components[i].getType();
      nullable[i] = components[i].getAnnotatedType().isAnnotationPresent(Nullable.class);
      idx.put(names[i], i);
    }
    index = Collections.unmodifiableMap(idx);
    dependentDefaults = UnsetValues.dependentDefaults(this);
    try {
      Constructor<?> c = type.getDeclaredConstructor(raw);
      c.setAccessible(true);
      constructor = MethodHandles.lookup().unreflectConstructor(c).asSpreader(Object[].class, n)
          .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(type.getName() + ": no accessible canonical constructor", e);
    }
  }

  /** The form of record type {@code type}. */
  static RecordForm of(Class<?> type) {
    synchronized (FORMS) {
      return of(type, new HashSet<>());
    }
  }

  private static RecordForm of(Class<?> type, Set<Class<?>> building) {
    RecordForm f = FORMS.get(type);
    if (f != null) {
      return f;
    }
    f = new RecordForm(type);
    building.add(type);
    RecordComponent[] components = type.getRecordComponents();
    for (int i = 0; i < components.length; i++) {
      f.unset[i] = unsetOf(type, components[i], building);
    }
    f.allUnset = f.construct(f.unset.clone());
    building.remove(type);
    FORMS.put(type, f);
    return f;
  }

  private @Nullable Object construct(@Nullable Object[] args) {
    for (Object a : args) {
      if (a == UnsetValues.REQUIRED) {
        return UnsetValues.REQUIRED;
      }
    }
    try {
      return newInstance(args);
    } catch (RuntimeException e) {
      return UnsetValues.REQUIRED;
    }
  }

  private static @Nullable Object unsetOf(Class<?> owner, RecordComponent c, Set<Class<?>> building) {
    Object d = UnsetValues.kindDefault(owner, c.getName());
    if (d != null) {
      return d;
    }
    if (c.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
      return null;
    }
    Class<?> raw = c.getType();
    Object byType = UnsetValues.ofType(raw);
    if (byType != null) {
      return byType;
    }
    if (raw.isRecord() && !building.contains(raw)) {
      return of(raw, building).allUnset;
    }
    return UnsetValues.REQUIRED;
  }

  /**
   * A new record of these component values through the canonical constructor, which validates.
   *
   * @throws RuntimeException whatever the constructor throws for values it refuses
   */
  Object newInstance(@Nullable Object[] args) {
    try {
      return (Object) constructor.invokeExact(args);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(type.getName() + ": constructor failed", t);
    }
  }

  /** The generic type of component {@code i} with its raw class. */
  static Class<?> raw(Type t) {
    return t instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) t;
  }
}
