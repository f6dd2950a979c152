package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PodGroupPhase;
import io.fleetkit.api.scheduling.PodGroupSpec;
import io.fleetkit.api.scheduling.PodGroupStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * scheduling.x-k8s.io/v1alpha1 PodGroup of the coscheduling plugin (a CRD: read from fabric8's
 * {@code GenericKubernetesResource}): {@code spec.minMember}, {@code scheduleTimeoutSeconds}, {@code minResources}.
 */
public final class PodGroupConverter extends AbstractKindConverter<GenericKubernetesResource, PodGroup> {
  public PodGroupConverter() {
    super(PodGroup.API_VERSION, PodGroup.KIND, true, GenericKubernetesResource.class, PodGroup.class);
  }

  @Override
  public @Nullable PodGroup toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    Integer minMember = Untyped.int32(spec, "minMember", "spec.minMember", ctx);
    Integer timeout = Untyped.int32(spec, "scheduleTimeoutSeconds", "spec.scheduleTimeoutSeconds", ctx);
    var minResources = Untyped.resources(spec, "minResources", "spec.minResources", ctx);
    PodGroupSpec coreSpec = ctx.build("spec", () -> new PodGroupSpec(minMember == null ? 0 : minMember, timeout,
        minResources));
    Map<String, Object> st = GenericKinds.section(in, "status", ctx);
    PodGroupStatus status = PodGroupStatus.PENDING;
    if (!st.isEmpty()) {
      var phase = Values.enumValue(PodGroupPhase.class, Untyped.string(st, "phase", "", "status.phase", ctx),
          PodGroupPhase.Pending, "status.phase", ctx);
      Integer scheduled = Untyped.int32(st, "scheduled", "status.scheduled", ctx);
      Integer running = Untyped.int32(st, "running", "status.running", ctx);
      Integer succeeded = Untyped.int32(st, "succeeded", "status.succeeded", ctx);
      Integer failed = Untyped.int32(st, "failed", "status.failed", ctx);
      var start = Values.instant(Untyped.string(st, "scheduleStartTime", "", "status.scheduleStartTime", ctx),
          "status.scheduleStartTime", ctx);
      status = ctx.build("status", () -> new PodGroupStatus(phase, orZero(scheduled), orZero(running),
          orZero(succeeded), orZero(failed), start));
    }
    PodGroupStatus fs = status;
    return coreSpec == null || fs == null ? null : ctx.build("", () -> new PodGroup(meta, coreSpec, fs));
  }

  private static int orZero(@Nullable Integer i) {
    return i == null ? 0 : i;
  }

  @Override
  public GenericKubernetesResource toFabric8(PodGroup in) {
    PodGroupSpec s = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minMember", s.minMember());
    Untyped.put(spec, "scheduleTimeoutSeconds", s.scheduleTimeoutSeconds());
    Untyped.put(spec, "minResources", Untyped.resources(s.minResources()));
    Map<String, Object> status = new LinkedHashMap<>();
    PodGroupStatus st = in.status();
    if (!st.equals(PodGroupStatus.PENDING)) {
      status.put("phase", st.phase().name());
      status.put("scheduled", st.scheduled());
      status.put("running", st.running());
      status.put("succeeded", st.succeeded());
      status.put("failed", st.failed());
      Untyped.put(status, "scheduleStartTime", Values.instant(st.scheduleStartTime()));
    }
    return GenericKinds.resource(in, spec, status);
  }
}
