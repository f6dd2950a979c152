package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A DeviceTaintRule ({@code resource.k8s.io/v1}, cluster-scoped): adds one taint to every published device its
 * selector matches, as if the driver had put it in the device's ResourceSlice. The allocator then keeps the device
 * from claims that do not tolerate a NoSchedule or NoExecute taint, and the device taint eviction controller evicts
 * the pods using a device it taints with NoExecute unless their claim tolerates it.
 *
 * <p>The constructor checks Kubernetes' rules ({@code ValidateDeviceTaintRule}): the name is a DNS-1123 subdomain;
 * a selector's driver is a DNS subdomain of at most 63 characters, its pool DNS subdomains separated by {@code /},
 * its device a DNS label; the taint's key is a label name and its value, if any, a label value; the status has at
 * most {@value DeviceTaintRuleStatus#MAX_CONDITIONS} conditions of distinct types. It throws
 * {@link io.fleetkit.api.ValidationException} naming each broken rule.
 */
public record DeviceTaintRule(ObjectMeta metadata, DeviceTaintRuleSpec spec, DeviceTaintRuleStatus status)
    implements ApiObject<DeviceTaintRule> {
  public static final String API_VERSION = "resource.k8s.io/v1";
  public static final String KIND = "DeviceTaintRule";

  public DeviceTaintRule {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    DeviceTaintSelector s = spec.deviceSelector();
    if (s != null) {
      if (s.driver() != null) {
        DraChecks.driverName(v, "spec.deviceSelector.driver", s.driver());
      }
      if (s.pool() != null) {
        DraChecks.poolName(v, "spec.deviceSelector.pool", s.pool());
      }
      if (s.device() != null) {
        v.dnsLabel("spec.deviceSelector.device", s.device());
      }
    }
    DraChecks.taint(v, "spec.taint", spec.taint());
    List<Condition> conditions = status.conditions();
    if (conditions.size() > DeviceTaintRuleStatus.MAX_CONDITIONS) {
      v.add("status.conditions", DraChecks.tooMany(DeviceTaintRuleStatus.MAX_CONDITIONS), conditions.size());
    }
    Set<String> types = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      Condition c = conditions.get(i);
      if (!types.add(c.type())) {
        v.add("status.conditions[" + i + "].type", Violations.DUPLICATE, c.type());
      }
    }
    v.throwIfAny();
  }

  /** A rule named {@code name} adding {@code taint} to the devices {@code selector} matches. */
  public static DeviceTaintRule of(String name, DeviceTaintSelector selector, DeviceTaint taint) {
    return new DeviceTaintRule(ObjectMeta.of(name), new DeviceTaintRuleSpec(selector, taint),
        DeviceTaintRuleStatus.EMPTY);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether this rule taints the device {@code driver}/{@code pool}/{@code device}. */
  public boolean matches(String driver, String pool, String device) {
    return spec.matches(driver, pool, device);
  }

  /**
   * The taints of {@code device} of pool {@code pool} published by {@code driver} with those of the {@code rules}
   * that match it added after the device's own, as upstream's ResourceSlice tracker presents devices to the
   * allocator.
   */
  public static List<DeviceTaint> deviceTaints(String driver, String pool, Device device,
      Collection<DeviceTaintRule> rules) {
    List<DeviceTaint> out = null;
    for (DeviceTaintRule r : rules) {
      if (r.matches(driver, pool, device.name())) {
        if (out == null) {
          out = new ArrayList<>(device.taints());
        }
        out.add(r.spec.taint());
      }
    }
    return out == null ? device.taints() : out;
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public DeviceTaintRule withMetadata(ObjectMeta m) {
    return new DeviceTaintRule(m, spec, status);
  }

  /** This rule with {@code s} as its status. */
  public DeviceTaintRule withStatus(DeviceTaintRuleStatus s) {
    return new DeviceTaintRule(metadata, spec, s);
  }

  @Override
  public DeviceTaintRule withStatusOf(DeviceTaintRule other) {
    return new DeviceTaintRule(metadata, spec, other.status);
  }

  /**
   * Builds a {@link DeviceTaintRule}; name and taint (key and effect) are required, the selector defaults to
   * none (no device). Not thread-safe.
   */
  public static final class Builder {
    private @Nullable String name;
    private @Nullable DeviceTaintSelector selector;
    private @Nullable String key;
    private String value = "";
    private @Nullable DeviceTaintEffect effect;
    private @Nullable Instant timeAdded;

    private Builder() {}

    public Builder name(String v) {
      name = set("name", name, v);
      return this;
    }

    /** The devices to taint. */
    public Builder deviceSelector(DeviceTaintSelector v) {
      selector = set("deviceSelector", selector, v);
      return this;
    }

    /** The taint: its key, value (may be empty) and effect. */
    public Builder taint(String k, String val, DeviceTaintEffect e) {
      key = set("taint.key", key, k);
      value = Objects.requireNonNull(val, "taint.value");
      effect = Objects.requireNonNull(e, "taint.effect");
      return this;
    }

    /** When the taint was added: eviction delays count from here. */
    public Builder timeAdded(Instant v) {
      timeAdded = set("taint.timeAdded", timeAdded, v);
      return this;
    }

    private static <T> T set(String what, @Nullable T old, T v) {
      Objects.requireNonNull(v, what);
      if (old != null) {
        throw new IllegalStateException("DeviceTaintRule builder: " + what + " already set to " + old);
      }
      return v;
    }

    /**
     * @throws IllegalStateException when the name or the taint is missing
     * @throws io.fleetkit.api.ValidationException when a rule of {@link DeviceTaintRule} is broken
     */
    public DeviceTaintRule build() {
      if (name == null || key == null || effect == null) {
        throw new IllegalStateException("DeviceTaintRule builder: name and taint are required");
      }
      return new DeviceTaintRule(ObjectMeta.of(name), new DeviceTaintRuleSpec(selector,
          new DeviceTaint(key, value, effect, timeAdded)), DeviceTaintRuleStatus.EMPTY);
    }
  }
}
