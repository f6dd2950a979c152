package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
import io.fleetkit.api.resource.dra.DeviceClaim;
import io.fleetkit.api.resource.dra.DeviceConstraint;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.DeviceTolerationOperator;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The parts the {@code resource.k8s.io/v1} kinds share: selectors and a claim's device requests (with
 * {@code exactly} or a prioritized list, {@code firstAvailable}, with their tolerations) and constraints, device
 * taints and tolerations, both ways. Reading applies Kubernetes' defaults ({@code allocationMode} ExactCount,
 * {@code count} 1 for ExactCount, in requests and sub-requests alike; a toleration's {@code operator} Equal);
 * writing prints them, as {@code kubectl get -o yaml} does. Fields of the API that FleetKit does not model are refused
 * with a problem naming the field, never dropped. The rules of the kinds themselves (names, counts, limits) are the
 * core-api records', reported through {@link DocumentContext#build}. Stateless.
 */
final class DraYaml {
  private DraYaml() {}

  /** Reports {@code value} at {@code path} when it is set: FleetKit does not model {@code what}. */
  static void unsupported(@Nullable Object value, String path, String what, DocumentContext ctx) {
    if (value == null || value instanceof Collection<?> c && c.isEmpty() || value instanceof Map<?, ?> m && m.isEmpty()
        || Boolean.FALSE.equals(value)) {
      return;
    }
    ctx.error(path, "is not supported (FleetKit does not model " + what + ")", null);
  }

  static List<DeviceSelector> selectors(
      @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector> in, String path,
      DocumentContext ctx) {
    return Fabric8Scheduling.list(in, path, ctx, (s, p, cx) -> {
      if (s.getCel() == null) {
        cx.error(p + ".cel", "is required (the only kind of selector)", null);
        return null;
      }
      return DeviceSelector.cel(Values.orEmpty(s.getCel().getExpression()));
    });
  }

  static @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector> selectors(
      List<DeviceSelector> in) {
    return Fabric8Scheduling.out(in, s -> {
      var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector();
      out.setCel(new CELDeviceSelector(s.expression()));
      return out;
    });
  }

  /** {@code spec.devices} of a claim or a template's claim spec; {@code null} reads as no requests. */
  static DeviceClaim deviceClaim(io.fabric8.kubernetes.api.model.resource.v1.@Nullable DeviceClaim in, String path,
      DocumentContext ctx) {
    if (in == null) {
      return new DeviceClaim(List.of(), List.of());
    }
    unsupported(in.getConfig(), path + ".config", "claim configuration (opaque driver parameters)", ctx);
    List<DeviceRequest> requests = Fabric8Scheduling.list(in.getRequests(), path + ".requests", ctx,
        DraYaml::request);
    List<DeviceConstraint> constraints = Fabric8Scheduling.list(in.getConstraints(), path + ".constraints", ctx,
        DraYaml::constraint);
    return new DeviceClaim(requests, constraints);
  }

  private static @Nullable DeviceRequest request(io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest r,
      String p, DocumentContext ctx) {
    ExactDeviceRequest exactly = r.getExactly() == null ? null : exactly(r.getExactly(), p + ".exactly", ctx);
    List<DeviceSubRequest> subs = Fabric8Scheduling.list(r.getFirstAvailable(), p + ".firstAvailable", ctx,
        DraYaml::subRequest);
    // Neither or both of exactly and firstAvailable: the claim's validation reports it.
    return new DeviceRequest(Values.orEmpty(r.getName()), exactly, subs);
  }

  private static @Nullable ExactDeviceRequest exactly(io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest e,
      String p, DocumentContext ctx) {
    unsupported(e.getCapacity(), p + ".capacity", "consumable capacity", ctx);
    unsupported(e.getDerivedAttributes(), p + ".derivedAttributes", "derived attributes", ctx);
    DeviceAllocationMode mode = mode(e.getAllocationMode(), p + ".allocationMode", ctx);
    if (mode == null) {
      return null;
    }
    return new ExactDeviceRequest(Values.orEmpty(e.getDeviceClassName()),
        selectors(e.getSelectors(), p + ".selectors", ctx), mode, count(mode, e.getCount()),
        Values.boolOr(e.getAdminAccess(), false), tolerations(e.getTolerations(), p + ".tolerations", ctx));
  }

  private static @Nullable DeviceSubRequest subRequest(io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest s,
      String p, DocumentContext ctx) {
    unsupported(s.getCapacity(), p + ".capacity", "consumable capacity", ctx);
    unsupported(s.getDerivedAttributes(), p + ".derivedAttributes", "derived attributes", ctx);
    DeviceAllocationMode mode = mode(s.getAllocationMode(), p + ".allocationMode", ctx);
    if (mode == null) {
      return null;
    }
    return new DeviceSubRequest(Values.orEmpty(s.getName()), Values.orEmpty(s.getDeviceClassName()),
        selectors(s.getSelectors(), p + ".selectors", ctx), mode, count(mode, s.getCount()),
        tolerations(s.getTolerations(), p + ".tolerations", ctx));
  }

  /** Tolerations of a request, an alternative or an allocation result; an unset operator is Equal. */
  static List<DeviceToleration> tolerations(
      @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration> in, String path,
      DocumentContext ctx) {
    return Fabric8Scheduling.list(in, path, ctx, (t, p, cx) -> {
      DeviceTolerationOperator op = DeviceTolerationOperator.EQUAL;
      if (t.getOperator() != null && !t.getOperator().isEmpty()) {
        try {
          op = DeviceTolerationOperator.parse(t.getOperator());
        } catch (IllegalArgumentException e) {
          cx.error(p + ".operator", e.getMessage(), null);
          return null;
        }
      }
      DeviceTaintEffect effect = null;
      if (t.getEffect() != null && !t.getEffect().isEmpty()) {
        effect = effect(t.getEffect(), p + ".effect", cx);
        if (effect == null) {
          return null;
        }
      }
      return new DeviceToleration(Values.orEmpty(t.getKey()), op, Values.orEmpty(t.getValue()), effect,
          t.getTolerationSeconds());
    });
  }

  static @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration> tolerations(
      List<DeviceToleration> in) {
    return Fabric8Scheduling.out(in, t -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration();
      f.setKey(Values.emptyToNull(t.key()));
      f.setOperator(t.operator().wireName());
      f.setValue(Values.emptyToNull(t.value()));
      f.setEffect(t.effect() == null ? null : t.effect().wireName());
      f.setTolerationSeconds(t.tolerationSeconds());
      return f;
    });
  }

  /** A device's taints; the effect is required. */
  static List<DeviceTaint> taints(@Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint> in,
      String path, DocumentContext ctx) {
    return Fabric8Scheduling.list(in, path, ctx, DraYaml::taint);
  }

  /** One taint (of a device or a DeviceTaintRule); the effect is required. */
  static @Nullable DeviceTaint taint(io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint t, String p,
      DocumentContext cx) {
    if (t.getEffect() == null || t.getEffect().isEmpty()) {
      cx.error(p + ".effect", "is required (None, NoSchedule or NoExecute)", null);
      return null;
    }
    DeviceTaintEffect effect = effect(t.getEffect(), p + ".effect", cx);
    Instant added = Values.instant(t.getTimeAdded(), p + ".timeAdded", cx);
    return effect == null ? null : new DeviceTaint(Values.orEmpty(t.getKey()), Values.orEmpty(t.getValue()), effect,
        added);
  }

  static @Nullable List<io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint> taints(List<DeviceTaint> in) {
    return Fabric8Scheduling.out(in, DraYaml::taint);
  }

  static io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint taint(DeviceTaint t) {
    var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint();
    f.setKey(t.key());
    f.setValue(Values.emptyToNull(t.value()));
    f.setEffect(t.effect().wireName());
    f.setTimeAdded(Values.instant(t.timeAdded()));
    return f;
  }

  private static @Nullable DeviceTaintEffect effect(String name, String path, DocumentContext ctx) {
    try {
      return DeviceTaintEffect.parse(name);
    } catch (IllegalArgumentException e) {
      ctx.error(path, e.getMessage(), null);
      return null;
    }
  }

  /** Kubernetes' defaulting: an unset mode is ExactCount. */
  static @Nullable DeviceAllocationMode mode(@Nullable String mode, String path, DocumentContext ctx) {
    if (mode == null || mode.isEmpty()) {
      return DeviceAllocationMode.EXACT_COUNT;
    }
    try {
      return DeviceAllocationMode.parse(mode);
    } catch (IllegalArgumentException e) {
      ctx.error(path, e.getMessage(), null);
      return null;
    }
  }

  /** Kubernetes' defaulting: an ExactCount request without a count (0 in the API) asks for one device. */
  static long count(DeviceAllocationMode mode, @Nullable Long count) {
    long c = count == null ? 0 : count;
    return mode == DeviceAllocationMode.EXACT_COUNT && c == 0 ? 1 : c;
  }

  private static @Nullable DeviceConstraint constraint(io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint c,
      String p, DocumentContext ctx) {
    unsupported(c.getDistinctAttribute(), p + ".distinctAttribute", "distinctAttribute constraints", ctx);
    return new DeviceConstraint(Values.stringList(c.getRequests(), p + ".requests", ctx), c.getMatchAttribute());
  }

  static io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim deviceClaim(DeviceClaim in) {
    var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim();
    out.setRequests(new ArrayList<>(in.requests().stream().map(DraYaml::request).toList()));
    out.setConstraints(new ArrayList<>(in.constraints().stream().map(c -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint();
      f.setRequests(Values.emptyToNull(c.requests()));
      f.setMatchAttribute(c.matchAttribute());
      return f;
    }).toList()));
    return out;
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest request(DeviceRequest r) {
    var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest();
    out.setName(r.name());
    if (r.exactly() != null) {
      out.setExactly(exactly(r.exactly()));
    }
    out.setFirstAvailable(Fabric8Scheduling.out(r.firstAvailable(), s -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest();
      f.setName(s.name());
      f.setDeviceClassName(s.deviceClassName());
      f.setSelectors(selectors(s.selectors()));
      f.setAllocationMode(s.allocationMode().wireName());
      f.setCount(s.allocationMode() == DeviceAllocationMode.EXACT_COUNT ? s.count() : null);
      f.setTolerations(tolerations(s.tolerations()));
      return f;
    }));
    return out;
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest exactly(ExactDeviceRequest e) {
    var out = new io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest();
    out.setDeviceClassName(e.deviceClassName());
    out.setSelectors(selectors(e.selectors()));
    out.setAllocationMode(e.allocationMode().wireName());
    out.setCount(e.allocationMode() == DeviceAllocationMode.EXACT_COUNT ? e.count() : null);
    out.setAdminAccess(e.adminAccess() ? Boolean.TRUE : null);
    out.setTolerations(tolerations(e.tolerations()));
    return out;
  }
}
