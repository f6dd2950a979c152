package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The {@code pod-template-hash} of a Deployment's template, after {@code controller.ComputeHash}: FNV-32a over a
 * canonical rendering of the template (records field by field, maps sorted by key, so the value is the same in
 * every JVM run, unlike {@code Map.copyOf} iteration order), then the collision count, encoded with
 * {@code rand.SafeEncodeString}. Upstream hashes Go's deep-printed struct, so the values differ from Kubernetes';
 * only their role (stable names that change with the template) is kept.
 */
public final class TemplateHash {
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private TemplateHash() {}

  /** The hash label value for {@code template} (its own pod-template-hash label ignored). */
  public static String compute(PodTemplateSpec template, @Nullable Integer collisionCount) {
    StringBuilder sb = new StringBuilder();
    render(withoutHash(template), sb);
    int h = 0x811c9dc5;
    for (byte b : sb.toString().getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x01000193;
    }
    if (collisionCount != null) {
      int c = collisionCount;
      for (int i = 0; i < 4; i++) { // little-endian, as binary.LittleEndian.PutUint32
        h ^= (c >>> (8 * i)) & 0xff;
        h *= 0x01000193;
      }
    }
    return safeEncode(Long.toString(Integer.toUnsignedLong(h)));
  }

  /**
   * Upstream's {@code rand.SafeEncodeString}: each character replaced by one of 27 letters and digits without vowels
   * (no words can form), so that a number can be used in a name.
   */
  static String safeEncode(String s) {
    char[] out = new char[s.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ALPHANUMS[s.charAt(i) % ALPHANUMS.length];
    }
    return new String(out);
  }

  /**
   * The canonical rendering of a core-api value that the hashes are computed over: records field by field, maps and
   * sets sorted, so that equal values (by {@code equals}) render the same in every JVM run.
   */
  static String canonical(Object value) {
    StringBuilder sb = new StringBuilder();
    render(value, sb);
    return sb.toString();
  }

  /** {@code template} without the {@link WorkloadLabels#POD_TEMPLATE_HASH} label. */
  public static PodTemplateSpec withoutHash(PodTemplateSpec template) {
    if (!template.labels().containsKey(WorkloadLabels.POD_TEMPLATE_HASH)) {
      return template;
    }
    TreeMap<String, String> labels = new TreeMap<>(template.labels());
    labels.remove(WorkloadLabels.POD_TEMPLATE_HASH);
    ObjectMeta m = template.metadata().withLabels(labels);
    return new PodTemplateSpec(m, template.spec());
  }

  /**
   * Upstream's {@code EqualIgnoreHash}: {@code withoutHash(a).equals(withoutHash(b))}, without copying either template
   * (a Deployment's sync compares its template with every ReplicaSet's, whose labels hold the hash): the specs are
   * compared as they are, the labels entry by entry skipping the hash, and the rest of the metadata component by
   * component.
   */
  public static boolean equalIgnoreHash(PodTemplateSpec a, PodTemplateSpec b) {
    return equalIgnoreHash(a, b, WorkloadLabels.POD_TEMPLATE_HASH);
  }

  /**
   * {@link #equalIgnoreHash(PodTemplateSpec, PodTemplateSpec)} ignoring the label {@code hashLabel} (Argo Rollouts'
   * {@code PodTemplateEqualIgnoreHash} ignores {@code rollouts-pod-template-hash}).
   */
  public static boolean equalIgnoreHash(PodTemplateSpec a, PodTemplateSpec b, String hashLabel) {
    if (a == b) {
      return true;
    }
    if (a.spec() != b.spec() && !a.spec().equals(b.spec())) {
      return false;
    }
    ObjectMeta ma = a.metadata();
    ObjectMeta mb = b.metadata();
    if (ma == mb) {
      return true;
    }
    Map<String, String> la = ma.labels();
    Map<String, String> lb = mb.labels();
    if (la.equals(lb)) {
      return ma.equals(mb);
    }
    if (!equalIgnoringHash(la, lb, hashLabel)) {
      return false;
    }
    // every other component of the metadata (TemplateHashEqualIgnoreHashPropertyTest fails when one is added)
    return ma.name().equals(mb.name()) && ma.namespace().equals(mb.namespace()) && ma.uid().equals(mb.uid())
        && ma.resourceVersion().equals(mb.resourceVersion()) && ma.generation() == mb.generation()
        && ma.annotations().equals(mb.annotations()) && ma.ownerReferences().equals(mb.ownerReferences())
        && ma.finalizers().equals(mb.finalizers()) && Objects.equals(ma.creationTimestamp(), mb.creationTimestamp())
        && Objects.equals(ma.deletionTimestamp(), mb.deletionTimestamp())
        && Objects.equals(ma.deletionGracePeriodSeconds(), mb.deletionGracePeriodSeconds());
  }

  /** Whether {@code a} and {@code b} hold the same entries apart from {@code hash}. */
  private static boolean equalIgnoringHash(Map<String, String> a, Map<String, String> b, String hash) {
    if (a.size() - (a.containsKey(hash) ? 1 : 0) != b.size() - (b.containsKey(hash) ? 1 : 0)) {
      return false;
    }
    for (String k : a.keySet()) {
      if (!k.equals(hash) && !a.get(k).equals(b.get(k))) {
        return false;
      }
    }
    return true;
  }

  /** Whether component {@code name} of {@code record} came after the hash was defined and holds its unset value. */
  private static boolean addedLaterAndUnset(Object record, String name, @Nullable Object value) {
    if (record instanceof ObjectMeta) {
      return value == null && name.equals("deletionGracePeriodSeconds");
    }
    if (record instanceof Container) {
      return name.equals("volumeMounts") && value instanceof List<?> l && l.isEmpty();
    }
    if (record instanceof PodSpec) {
      return switch (name) {
        case "serviceAccountName" -> "".equals(value);
        case "automountServiceAccountToken", "dnsConfig" -> value == null;
        case "dnsPolicy" -> value == DNSPolicy.ClusterFirst;
        case "hostAliases", "imagePullSecrets" -> value instanceof List<?> l && l.isEmpty();
        case "hostNetwork" -> Boolean.FALSE.equals(value);
        default -> false;
      };
    }
    return false;
  }

  private static void render(@Nullable Object o, StringBuilder sb) {
    if (o == null) {
      sb.append("null");
    } else if (o instanceof Record r) {
      sb.append(o.getClass().getSimpleName()).append('{');
      for (RecordComponent c : o.getClass().getRecordComponents()) {
        Object value;
        try {
          value = c.getAccessor().invoke(r);
        } catch (IllegalAccessException | InvocationTargetException e) {
          value = e.getClass().getSimpleName(); // public records of core-api: not expected
        }
        if (addedLaterAndUnset(o, c.getName(), value)) {
          // a component added after the hash was defined is left out while unset (as JSON's omitempty leaves it
          // out of upstream's hash), so that the hashes, and the names made of them, stay what they were
          continue;
        }
        sb.append(c.getName()).append('=');
        render(value, sb);
        sb.append(';');
      }
      sb.append('}');
    } else if (o instanceof Map<?, ?> m) {
      TreeMap<String, @Nullable Object> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sorted.put(String.valueOf(e.getKey()), e.getValue());
      }
      sb.append('{');
      for (Map.Entry<String, @Nullable Object> e : sorted.entrySet()) {
        sb.append(e.getKey()).append(':');
        render(e.getValue(), sb);
        sb.append(',');
      }
      sb.append('}');
    } else if (o instanceof Set<?> s) {
      List<String> parts = new ArrayList<>();
      for (Object x : s) {
        StringBuilder p = new StringBuilder();
        render(x, p);
        parts.add(p.toString());
      }
      parts.sort(null);
      sb.append(parts);
    } else if (o instanceof Collection<?> c) {
      sb.append('[');
      for (Object x : c) {
        render(x, sb);
        sb.append(',');
      }
      sb.append(']');
    } else if (o instanceof Enum<?> e) {
      sb.append(e.name());
    } else {
      sb.append(o);
    }
  }
}
