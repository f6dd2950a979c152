package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violation;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The devices a DRA driver publishes for every node of a {@link NodePool} (a device template): the driver, the pool
 * name and the devices of one node-local {@link ResourceSlice}. A node gets one slice per template,
 * {@link #sliceFor(String)}: named {@code <node>-<driver>-<pool>}, of the pool {@code <node>-<pool>} (pool names are
 * unique per driver in a cluster, so each node's pool gets the node's name, as a driver's kubelet plugin names it),
 * generation 1 of 1 slice, {@code nodeName} the node. The cluster autoscaler gives those slices to the template nodes
 * it simulates; a simulation's driver publisher ({@code io.fleetkit.reconcile.node.ResourceSlicePublisher}) creates
 * them in the store when the node's driver runs.
 *
 * <p>{@link NodePool}'s constructor checks each template with {@link #check}: the rules of the slice it makes
 * (driver name, pool name, at most 128 devices, unique DNS-label device names, qualified attribute and capacity
 * names, taints), with the fields named under the pool's {@code spec.template.resourceSlices[i]}; per-device node
 * selection and shared counters are not part of a template.
 *
 * @param driver the DRA driver's name, a DNS subdomain of at most 63 characters
 * @param pool the pool's name on every node, prefixed with the node's name in the slice
 * @param devices the devices every node of the pool has
 */
public record ResourceSliceTemplate(String driver, String pool, List<Device> devices) {
  /** The longest object name (a DNS subdomain). */
  /** A node name to check a template's slice with. */
  private static final String PROBE_NODE = "node";

  public ResourceSliceTemplate {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    devices = List.copyOf(devices);
  }

  /** A template of {@code devices} for {@code driver}, in the pool {@code pool}. */
  public static ResourceSliceTemplate of(String driver, String pool, Device... devices) {
    return new ResourceSliceTemplate(driver, pool, List.of(devices));
  }

  /**
   * The slices of {@code templates} for node {@code nodeName}, one per template in order ({@link #sliceFor}); empty
   * without templates.
   *
   * @throws ValidationException if a slice breaks a rule of {@link ResourceSlice}
   */
  public static List<ResourceSlice> slicesFor(List<ResourceSliceTemplate> templates, String nodeName) {
    if (templates.isEmpty()) {
      return List.of();
    }
    List<ResourceSlice> out = new java.util.ArrayList<>(templates.size());
    for (ResourceSliceTemplate t : templates) {
      out.add(t.sliceFor(nodeName));
    }
    return List.copyOf(out);
  }

  /**
   * The slice of this template for node {@code nodeName}: name {@code <node>-<driver>-<pool>} (a {@code /} of the
   * pool name becomes {@code -}; a name longer than 253 characters keeps its start and a hash of the whole), pool
   * {@code <node>-<pool>}, generation 1 of 1 slice, {@code spec.nodeName} the node, the devices.
   *
   * @throws ValidationException if the slice breaks a rule of {@link ResourceSlice}
   */
  public ResourceSlice sliceFor(String nodeName) {
    Objects.requireNonNull(nodeName, "nodeName");
    return new ResourceSlice(ObjectMeta.of(sliceName(nodeName)),
        ResourceSliceSpec.builder(driver, ResourcePool.of(nodeName + "-" + pool)).nodeName(nodeName)
            .devices(devices).build());
  }

  /** The name of this template's slice for node {@code nodeName}. */
  public String sliceName(String nodeName) {
    return ObjectMeta.shortenedName(nodeName + "-" + driver + "-" + pool.replace('/', '-'));
  }


  /**
   * Adds to {@code v} the broken rules of {@code templates}, each under {@code field[i]}: those of the slice a
   * template makes (fields {@code driver}, {@code pool}, {@code devices[j]...}), and a driver and pool given twice.
   */
  static void check(Violations v, String field, List<ResourceSliceTemplate> templates) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < templates.size(); i++) {
      ResourceSliceTemplate t = templates.get(i);
      String path = field + "[" + i + "]";
      if (!seen.add(t.driver() + "\n" + t.pool())) {
        v.add(path + ".pool", Violations.DUPLICATE, t.pool());
      }
      if (t.pool().isEmpty()) {
        v.required(path + ".pool");
        t = new ResourceSliceTemplate(t.driver(), "pool", t.devices()); // the other rules still apply
      }
      try {
        t.sliceFor(PROBE_NODE);
      } catch (ValidationException e) {
        for (Violation bad : e.violations()) {
          boolean pool = bad.field().equals("spec.pool.name");
          v.add(path + "." + templateField(bad.field()), bad.rule(), pool ? templates.get(i).pool() : bad.value());
        }
      }
    }
  }

  /** The template's field for a field of the slice it makes. */
  private static String templateField(String sliceField) {
    if (sliceField.equals("spec.pool.name")) {
      return "pool";
    }
    return sliceField.startsWith("spec.") ? sliceField.substring("spec.".length()) : sliceField;
  }
}
