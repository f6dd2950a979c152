package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateRunningBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateWaitingBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/** core/v1 Pod. A missing status is a Pending pod. */
public final class PodConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Pod, Pod> {
  public PodConverter() {
    super(Pod.API_VERSION, Pod.KIND, true, io.fabric8.kubernetes.api.model.Pod.class, Pod.class);
  }

  @Override
  public @Nullable Pod toCore(io.fabric8.kubernetes.api.model.Pod in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    PodSpec spec = PodSpecs.toCore(in.getSpec(), "spec", ctx);
    PodStatus status = status(in.getStatus(), ctx);
    if (spec == null || status == null) {
      return null;
    }
    return ctx.build("", () -> new Pod(meta, spec, status));
  }

  private static @Nullable PodStatus status(io.fabric8.kubernetes.api.model.@Nullable PodStatus s,
      DocumentContext ctx) {
    if (s == null) {
      return PodStatus.PENDING;
    }
    PodPhase phase = Values.enumValue(PodPhase.class, s.getPhase(), PodPhase.Pending, "status.phase", ctx);
    var conditions = Fabric8Scheduling.list(s.getConditions(), "status.conditions", ctx, PodConverter::condition);
    var start = Values.instant(s.getStartTime(), "status.startTime", ctx);
    var containers = Fabric8Scheduling.list(s.getContainerStatuses(), "status.containerStatuses", ctx,
        PodConverter::containerStatus);
    var initContainers = Fabric8Scheduling.list(s.getInitContainerStatuses(), "status.initContainerStatuses", ctx,
        PodConverter::containerStatus);
    java.util.List<String> podIPs = new java.util.ArrayList<>();
    if (s.getPodIPs() != null && !s.getPodIPs().isEmpty()) {
      s.getPodIPs().forEach(ip -> podIPs.add(Values.orEmpty(ip.getIp())));
    } else if (s.getPodIP() != null && !s.getPodIP().isEmpty()) {
      podIPs.add(s.getPodIP());
    }
    java.util.List<String> hostIPs = new java.util.ArrayList<>();
    if (s.getHostIPs() != null && !s.getHostIPs().isEmpty()) {
      s.getHostIPs().forEach(ip -> hostIPs.add(Values.orEmpty(ip.getIp())));
    } else if (s.getHostIP() != null && !s.getHostIP().isEmpty()) {
      hostIPs.add(s.getHostIP());
    }
    var claims = Fabric8Scheduling.list(s.getResourceClaimStatuses(), "status.resourceClaimStatuses", ctx,
        (c, p, cx) -> new io.fleetkit.api.core.PodResourceClaimStatus(Values.required(c.getName(), p + ".name", cx),
            Values.orEmpty(c.getResourceClaimName())));
    return ctx.build("status", () -> new PodStatus(phase, conditions, Values.orEmpty(s.getNominatedNodeName()),
        Values.orEmpty(s.getHostIP()), start, containers, Values.orEmpty(s.getReason()),
        Values.orEmpty(s.getMessage()), podIPs, initContainers, claims, hostIPs));
  }

  private static @Nullable PodCondition condition(io.fabric8.kubernetes.api.model.PodCondition c, String p,
      DocumentContext ctx) {
    String type = Values.required(c.getType(), p + ".type", ctx);
    ConditionStatus status = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", ctx);
    var probe = Values.instant(c.getLastProbeTime(), p + ".lastProbeTime", ctx);
    var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", ctx);
    if (status == null) {
      return null;
    }
    return ctx.build(p, () -> new PodCondition(type, status, Values.orEmpty(c.getReason()),
        Values.orEmpty(c.getMessage()), probe, transition));
  }

  private static @Nullable ContainerStatus containerStatus(io.fabric8.kubernetes.api.model.ContainerStatus c,
      String p, DocumentContext ctx) {
    var st = c.getState();
    ContainerState state;
    if (st == null || st.getWaiting() != null) {
      state = st == null ? ContainerState.WAITING : ContainerState.waiting(Values.orEmpty(st.getWaiting().getReason()),
          Values.orEmpty(st.getWaiting().getMessage()));
    } else if (st.getRunning() != null) {
      state = ContainerState.running(Values.instant(st.getRunning().getStartedAt(), p + ".state.running.startedAt",
          ctx));
    } else if (st.getTerminated() != null) {
      state = terminated(st.getTerminated(), p + ".state.terminated", ctx);
    } else {
      state = ContainerState.WAITING;
    }
    var last = c.getLastState();
    ContainerState lastState = last == null || last.getTerminated() == null ? null
        : terminated(last.getTerminated(), p + ".lastState.terminated", ctx);
    return ctx.build(p, () -> new ContainerStatus(Values.required(c.getName(), p + ".name", ctx),
        Values.boolOr(c.getReady(), false), Values.intOr(c.getRestartCount(), 0), state,
        Values.boolOr(c.getStarted(), state.type() == ContainerStateType.Running), c.getStopSignal(), lastState));
  }

  private static ContainerState terminated(io.fabric8.kubernetes.api.model.ContainerStateTerminated t, String p,
      DocumentContext ctx) {
    return new ContainerState(ContainerStateType.Terminated, Values.orEmpty(t.getReason()), t.getExitCode(),
        Values.instant(t.getStartedAt(), p + ".startedAt", ctx), Values.instant(t.getFinishedAt(), p + ".finishedAt",
        ctx), Values.orEmpty(t.getMessage()));
  }

  @Override
  public io.fabric8.kubernetes.api.model.Pod toFabric8(Pod in) {
    PodStatus s = in.status();
    return new PodBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(PodSpecs.toFabric8(in.spec()))
        .withStatus(s.equals(PodStatus.PENDING) ? null : new PodStatusBuilder()
            .withPhase(s.phase().name())
            .withConditions(Fabric8Scheduling.out(s.conditions(), c -> new PodConditionBuilder().withType(c.type())
                .withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                .withMessage(Values.emptyToNull(c.message())).withLastProbeTime(Values.instant(c.lastProbeTime()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
            .withNominatedNodeName(Values.emptyToNull(s.nominatedNodeName()))
            .withHostIP(Values.emptyToNull(s.hostIP()))
            .withHostIPs(Fabric8Scheduling.out(s.hostIPs(), ip -> new io.fabric8.kubernetes.api.model.HostIP(ip)))
            .withStartTime(Values.instant(s.startTime()))
            .withContainerStatuses(Fabric8Scheduling.out(s.containerStatuses(), PodConverter::containerStatus))
            .withInitContainerStatuses(Fabric8Scheduling.out(s.initContainerStatuses(),
                PodConverter::containerStatus))
            .withReason(Values.emptyToNull(s.reason()))
            .withMessage(Values.emptyToNull(s.message()))
            .withPodIP(Values.emptyToNull(s.podIP()))
            .withPodIPs(Fabric8Scheduling.out(s.podIPs(), ip -> new io.fabric8.kubernetes.api.model.PodIP(ip)))
            .withResourceClaimStatuses(Fabric8Scheduling.out(s.resourceClaimStatuses(),
                c -> new io.fabric8.kubernetes.api.model.PodResourceClaimStatus(c.name(),
                    Values.emptyToNull(c.resourceClaimName()))))
            .build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.ContainerStatus containerStatus(ContainerStatus c) {
    ContainerState st = c.state();
    ContainerStateBuilder state = new ContainerStateBuilder();
    switch (st.type()) {
      case Running:
        state.withRunning(new ContainerStateRunningBuilder().withStartedAt(Values.instant(st.startedAt())).build());
        break;
      case Terminated:
        state.withTerminated(terminated(st));
        break;
      default:
        state.withWaiting(new ContainerStateWaitingBuilder().withReason(Values.emptyToNull(st.reason()))
            .withMessage(Values.emptyToNull(st.message())).build());
        break;
    }
    ContainerStatusBuilder out = new ContainerStatusBuilder().withName(c.name()).withReady(c.ready())
        .withRestartCount(c.restartCount()).withStarted(c.started()).withState(state.build())
        .withStopSignal(c.stopSignal());
    if (c.lastState() != null) {
      out.withLastState(new ContainerStateBuilder().withTerminated(terminated(c.lastState())).build());
    }
    return out.build();
  }

  private static io.fabric8.kubernetes.api.model.ContainerStateTerminated terminated(ContainerState st) {
    return new ContainerStateTerminatedBuilder().withExitCode(st.exitCode())
        .withReason(Values.emptyToNull(st.reason())).withMessage(Values.emptyToNull(st.message()))
        .withStartedAt(Values.instant(st.startedAt())).withFinishedAt(Values.instant(st.finishedAt())).build();
  }
}
