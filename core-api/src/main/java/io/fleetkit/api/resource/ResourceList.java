package io.fleetkit.api.resource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * An immutable map from resource name to {@link Quantity}, laid out for the scheduler's hot path.
 *
 * <p>The four standard resources are held as primitive {@code long}s at the precision Kubernetes' scheduler uses:
 * {@value ResourceNames#CPU} in milli-units ({@link Quantity#milliValue()}), {@value ResourceNames#MEMORY},
 * {@value ResourceNames#EPHEMERAL_STORAGE} and {@value ResourceNames#PODS} in whole units ({@link Quantity#value()});
 * a finer value is rounded away from zero when the list is built ({@code cpu: 100u} is held as {@code 1m}). Every other
 * (extended) resource — {@code nvidia.com/gpu}, {@code hugepages-2Mi}, {@code fleetkit.io/gpu-milli} — is kept exactly,
 * in a small array sorted by name. {@link #fitsIn}, {@link #insufficient}, {@link #milliCpu()} and
 * {@link #memoryBytes()} allocate nothing for lists of standard resources.
 *
 * <p>Arithmetic on the standard resources saturates at the {@code long} range instead of overflowing. Values may be
 * negative (a node's free resources after overcommit); validation of requests belongs to the objects that hold them.
 *
 * <p>Iteration order ({@link #names()}, {@link #asMap()}, {@link #toString()}, {@link #insufficient}) is by name.
 * {@link #equals} compares names and numeric values; formats are ignored. Instances are immutable and thread-safe.
 */
public final class ResourceList {

  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int EPHEMERAL_STORAGE = 2;
  private static final int PODS = 3;
  private static final String[] STANDARD_NAMES = {
    ResourceNames.CPU, ResourceNames.MEMORY, ResourceNames.EPHEMERAL_STORAGE, ResourceNames.PODS
  };
  /** The standard slots in the order of their names ({@code cpu, ephemeral-storage, memory, pods}). */
  private static final int[] SORTED_SLOTS = {CPU, EPHEMERAL_STORAGE, MEMORY, PODS};
  private static final Quantity.Format[] FORMATS = Quantity.Format.values();
  private static final String[] NO_NAMES = {};
  private static final Quantity[] NO_VALUES = {};

  /** The list with no resources. */
  public static final ResourceList EMPTY = new ResourceList(new long[4], 0, 0, NO_NAMES, NO_VALUES);

  /** Standard resources by slot; cpu in milli-units. Absent slots hold 0. */
  private final long cpuMilli;

  private final long memory;
  private final long ephemeralStorage;
  private final long pods;
  /** Bit {@code i} is set when standard slot {@code i} is present. */
  private final int present;
  /** Two bits per standard slot: the ordinal of the format its quantity was given in. */
  private final int formats;
  /** Extended resource names, sorted; parallel to {@link #extValues}. */
  private final String[] extNames;

  private final Quantity[] extValues;

  private ResourceList(long[] standard, int present, int formats, String[] extNames, Quantity[] extValues) {
    this.cpuMilli = standard[CPU];
    this.memory = standard[MEMORY];
    this.ephemeralStorage = standard[EPHEMERAL_STORAGE];
    this.pods = standard[PODS];
    this.present = present;
    this.formats = formats;
    this.extNames = extNames;
    this.extValues = extValues;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Factories

  /**
   * A list holding {@code values}.
   *
   * @throws NullPointerException if a name or value is null
   * @throws IllegalArgumentException if a name is not a valid resource name
   */
  public static ResourceList of(Map<String, Quantity> values) {
    Objects.requireNonNull(values, "values");
    Builder b = new Builder();
    values.forEach(b::put);
    return b.build();
  }

  /** A list of {@code milliCpu} milli-cpus and {@code memoryBytes} bytes of memory. */
  public static ResourceList ofCpuMemory(long milliCpu, long memoryBytes) {
    return new ResourceList(new long[] {milliCpu, memoryBytes, 0, 0}, 0b11, formatBits(MEMORY, Quantity.Format.BINARY_SI),
        NO_NAMES, NO_VALUES);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Reading

  /** The quantity of {@code name}, or {@link Quantity#ZERO} when absent. */
  public Quantity get(String name) {
    int slot = standardSlot(name);
    if (slot >= 0) {
      if (!hasSlot(slot)) {
        return Quantity.ZERO;
      }
      return slot == CPU ? Quantity.ofMilli(cpuMilli, format(CPU)) : Quantity.of(standard(slot), format(slot));
    }
    int i = Arrays.binarySearch(extNames, name);
    return i >= 0 ? extValues[i] : Quantity.ZERO;
  }

  /** Whether {@code name} is present (possibly with a zero quantity). */
  public boolean has(String name) {
    int slot = standardSlot(name);
    return slot >= 0 ? hasSlot(slot) : Arrays.binarySearch(extNames, name) >= 0;
  }

  /** The cpu in milli-units; 0 when absent. */
  public long milliCpu() {
    return cpuMilli;
  }

  /** The memory in bytes; 0 when absent. */
  public long memoryBytes() {
    return memory;
  }

  /** The ephemeral storage in bytes; 0 when absent. */
  public long ephemeralStorageBytes() {
    return ephemeralStorage;
  }

  /** The pod count; 0 when absent. */
  public long pods() {
    return pods;
  }

  /** {@code name}'s quantity in milli-units (see {@link Quantity#milliValue()}); 0 when absent. */
  public long milliValue(String name) {
    int slot = standardSlot(name);
    if (slot == CPU) {
      return cpuMilli;
    }
    if (slot >= 0) {
      return saturatedMultiply(standard(slot), 1000);
    }
    int i = Arrays.binarySearch(extNames, name);
    return i >= 0 ? extValues[i].milliValue() : 0;
  }

  /** {@code name}'s quantity in whole units, rounded away from zero (see {@link Quantity#value()}); 0 when absent. */
  public long value(String name) {
    int slot = standardSlot(name);
    if (slot == CPU) {
      long whole = cpuMilli / 1000;
      return cpuMilli % 1000 == 0 ? whole : whole + (cpuMilli < 0 ? -1 : 1);
    }
    if (slot >= 0) {
      return standard(slot);
    }
    int i = Arrays.binarySearch(extNames, name);
    return i >= 0 ? extValues[i].value() : 0;
  }

  /** Whether the list holds no resources. */
  public boolean isEmpty() {
    return present == 0 && extNames.length == 0;
  }

  /** The number of resources held. */
  public int size() {
    return Integer.bitCount(present) + extNames.length;
  }

  /** The names held, sorted. */
  public Set<String> names() {
    return Collections.unmodifiableSet(sortedMap().keySet());
  }

  /** Calls {@code action} with each resource in name order, without building a map. */
  public void forEach(BiConsumer<String, Quantity> action) {
    Objects.requireNonNull(action, "action");
    int e = 0;
    for (int slot : SORTED_SLOTS) {
      if (!hasSlot(slot)) {
        continue;
      }
      String name = STANDARD_NAMES[slot];
      while (e < extNames.length && extNames[e].compareTo(name) < 0) {
        action.accept(extNames[e], extValues[e]);
        e++;
      }
      action.accept(name, get(name));
    }
    for (; e < extNames.length; e++) {
      action.accept(extNames[e], extValues[e]);
    }
  }

  /** The resources as an unmodifiable map sorted by name; builds a new map on each call. */
  public Map<String, Quantity> asMap() {
    return Collections.unmodifiableMap(sortedMap());
  }

  private TreeMap<String, Quantity> sortedMap() {
    TreeMap<String, Quantity> m = new TreeMap<>();
    for (int slot = 0; slot < STANDARD_NAMES.length; slot++) {
      if (hasSlot(slot)) {
        m.put(STANDARD_NAMES[slot], get(STANDARD_NAMES[slot]));
      }
    }
    for (int i = 0; i < extNames.length; i++) {
      m.put(extNames[i], extValues[i]);
    }
    return m;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Scheduling predicates

  /**
   * Whether every resource this list requests is available in {@code capacity}: for each resource with a positive
   * quantity here, {@code capacity} holds at least as much (an absent resource counts as zero). Resources requested at
   * zero or less always fit, as in Kubernetes' {@code NodeResourcesFit}.
   */
  public boolean fitsIn(ResourceList capacity) {
    Objects.requireNonNull(capacity, "capacity");
    if (cpuMilli > 0 && cpuMilli > capacity.cpuMilli
        || memory > 0 && memory > capacity.memory
        || ephemeralStorage > 0 && ephemeralStorage > capacity.ephemeralStorage
        || pods > 0 && pods > capacity.pods) {
      return false;
    }
    for (int i = 0; i < extNames.length; i++) {
      Quantity q = extValues[i];
      if (q.signum() > 0 && q.compareTo(capacity.extended(extNames[i])) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The names of the resources this list requests (positive quantity) beyond what {@code free} holds, sorted; empty
   * exactly when {@link #fitsIn fitsIn(free)}.
   */
  public List<String> insufficient(ResourceList free) {
    Objects.requireNonNull(free, "free");
    List<String> out = new ArrayList<>(0);
    for (int slot = 0; slot < STANDARD_NAMES.length; slot++) {
      long want = standard(slot);
      if (want > 0 && want > free.standard(slot)) {
        out.add(STANDARD_NAMES[slot]);
      }
    }
    for (int i = 0; i < extNames.length; i++) {
      Quantity q = extValues[i];
      if (q.signum() > 0 && q.compareTo(free.extended(extNames[i])) > 0) {
        out.add(extNames[i]);
      }
    }
    Collections.sort(out);
    return Collections.unmodifiableList(out);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Arithmetic

  /** The per-resource sum; a resource held by one list only is kept as is. */
  public ResourceList add(ResourceList o) {
    return merge(this, Objects.requireNonNull(o, "o"), Op.ADD);
  }

  /** The per-resource difference {@code this - o}; a resource only {@code o} holds appears negated. */
  public ResourceList subtract(ResourceList o) {
    return merge(this, Objects.requireNonNull(o, "o"), Op.SUBTRACT);
  }

  /** The per-resource maximum; a resource held by one list only is kept as is. */
  public ResourceList max(ResourceList o) {
    return merge(this, Objects.requireNonNull(o, "o"), Op.MAX);
  }

  private enum Op {
    ADD,
    SUBTRACT,
    MAX;

    long apply(long a, boolean hasA, long b, boolean hasB) {
      if (!hasB) {
        return a;
      }
      return switch (this) {
        case ADD -> saturatedAdd(a, b);
        case SUBTRACT -> saturatedAdd(a, b == Long.MIN_VALUE ? Long.MAX_VALUE : -b);
        case MAX -> hasA ? Math.max(a, b) : b;
      };
    }

    Quantity apply(@Nullable Quantity a, @Nullable Quantity b) {
      if (b == null) {
        return Objects.requireNonNull(a);
      }
      if (a == null) {
        return this == SUBTRACT ? b.negate() : b;
      }
      return switch (this) {
        case ADD -> a.add(b);
        case SUBTRACT -> a.subtract(b);
        case MAX -> Quantity.max(a, b);
      };
    }
  }

  private static ResourceList merge(ResourceList a, ResourceList b, Op op) {
    if (b.isEmpty()) {
      return a;
    }
    if (a.isEmpty() && op != Op.SUBTRACT) {
      return b;
    }
    long[] standard = new long[4];
    int formats = 0;
    for (int slot = 0; slot < 4; slot++) {
      boolean hasA = a.hasSlot(slot);
      boolean hasB = b.hasSlot(slot);
      standard[slot] = op.apply(a.standard(slot), hasA, b.standard(slot), hasB);
      formats |= formatBits(slot, hasA ? a.format(slot) : b.format(slot));
    }
    String[] names;
    Quantity[] values;
    if (b.extNames.length == 0) {
      names = a.extNames;
      values = a.extValues;
    } else if (a.extNames.length == 0 && op != Op.SUBTRACT) {
      names = b.extNames;
      values = b.extValues;
    } else {
      int n = a.extNames.length + b.extNames.length;
      names = new String[n];
      values = new Quantity[n];
      int i = 0;
      int j = 0;
      int k = 0;
      while (i < a.extNames.length || j < b.extNames.length) {
        int c = i == a.extNames.length ? 1 : j == b.extNames.length ? -1 : a.extNames[i].compareTo(b.extNames[j]);
        if (c < 0) {
          names[k] = a.extNames[i];
          values[k++] = op.apply(a.extValues[i++], null);
        } else if (c > 0) {
          names[k] = b.extNames[j];
          values[k++] = op.apply(null, b.extValues[j++]);
        } else {
          names[k] = a.extNames[i];
          values[k++] = op.apply(a.extValues[i++], b.extValues[j++]);
        }
      }
      if (k < n) {
        names = Arrays.copyOf(names, k);
        values = Arrays.copyOf(values, k);
      }
    }
    return new ResourceList(standard, a.present | b.present, formats, names, values);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Object

  @Override
  public boolean equals(@Nullable Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof ResourceList r
        && present == r.present
        && cpuMilli == r.cpuMilli
        && memory == r.memory
        && ephemeralStorage == r.ephemeralStorage
        && pods == r.pods
        && Arrays.equals(extNames, r.extNames)
        && Arrays.equals(extValues, r.extValues);
  }

  @Override
  public int hashCode() {
    int h = present;
    h = 31 * h + Long.hashCode(cpuMilli);
    h = 31 * h + Long.hashCode(memory);
    h = 31 * h + Long.hashCode(ephemeralStorage);
    h = 31 * h + Long.hashCode(pods);
    h = 31 * h + Arrays.hashCode(extNames);
    return 31 * h + Arrays.hashCode(extValues);
  }

  /** The resources in name order, like a map: {@code {cpu=100m, memory=1Gi}}. */
  @Override
  public String toString() {
    return sortedMap().toString();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Internals

  private static int standardSlot(String name) {
    return switch (name) {
      case ResourceNames.CPU -> CPU;
      case ResourceNames.MEMORY -> MEMORY;
      case ResourceNames.EPHEMERAL_STORAGE -> EPHEMERAL_STORAGE;
      case ResourceNames.PODS -> PODS;
      default -> -1;
    };
  }

  private boolean hasSlot(int slot) {
    return (present & (1 << slot)) != 0;
  }

  private long standard(int slot) {
    return switch (slot) {
      case CPU -> cpuMilli;
      case MEMORY -> memory;
      case EPHEMERAL_STORAGE -> ephemeralStorage;
      default -> pods;
    };
  }

  private Quantity.Format format(int slot) {
    return FORMATS[(formats >>> (2 * slot)) & 0b11];
  }

  private static int formatBits(int slot, Quantity.Format format) {
    return format.ordinal() << (2 * slot);
  }

  private Quantity extended(String name) {
    if (extNames.length == 0) {
      return Quantity.ZERO;
    }
    int i = Arrays.binarySearch(extNames, name);
    return i >= 0 ? extValues[i] : Quantity.ZERO;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  private static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    if (high != (low >> 63)) {
      return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return low;
  }

  static void checkName(String name) {
    Objects.requireNonNull(name, "resource name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("resource name \"\" must not be empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "resource name \"" + name + "\" must be a qualified name (no whitespace or control characters)");
      }
    }
  }

  /** Collects resources for a {@link ResourceList}; not thread-safe. */
  public static final class Builder {
    private final long[] standard = new long[4];
    private final Quantity[] standardGiven = new Quantity[4];
    private int present;
    private int formats;
    private final TreeMap<String, Quantity> extended = new TreeMap<>();

    private Builder() {}

    /**
     * Adds {@code name} with {@code quantity}.
     *
     * @throws IllegalArgumentException if {@code name} is invalid or was already put (the message names the old value)
     */
    public Builder put(String name, Quantity quantity) {
      checkName(name);
      Objects.requireNonNull(quantity, () -> "resource " + name + ": quantity");
      int slot = standardSlot(name);
      if (slot >= 0) {
        if ((present & (1 << slot)) != 0) {
          throw duplicate(name, standardGiven[slot]);
        }
        present |= 1 << slot;
        standardGiven[slot] = quantity;
        standard[slot] = slot == CPU ? quantity.milliValue() : quantity.value();
        formats |= formatBits(slot, quantity.format());
      } else {
        Quantity old = extended.putIfAbsent(name, quantity);
        if (old != null) {
          throw duplicate(name, old);
        }
      }
      return this;
    }

    /**
     * Adds {@code name} with the parsed {@code quantity}.
     *
     * @throws IllegalArgumentException if {@code name} is invalid or already put, or {@code quantity} does not parse
     */
    public Builder put(String name, String quantity) {
      Objects.requireNonNull(quantity, () -> "resource " + name + ": quantity");
      Quantity q;
      try {
        q = Quantity.parse(quantity);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("resource " + name + ": " + e.getMessage(), e);
      }
      return put(name, q);
    }

    private static IllegalArgumentException duplicate(String name, Quantity old) {
      return new IllegalArgumentException("resource " + name + " was already set to " + old);
    }

    /** The list; the builder may be used again afterwards. */
    public ResourceList build() {
      if (present == 0 && extended.isEmpty()) {
        return EMPTY;
      }
      String[] names = extended.keySet().toArray(NO_NAMES);
      Quantity[] values = extended.values().toArray(NO_VALUES);
      return new ResourceList(standard.clone(), present, formats, names, values);
    }
  }
}
