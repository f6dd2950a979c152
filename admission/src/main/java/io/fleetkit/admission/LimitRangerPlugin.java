package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' LimitRanger ({@code plugin/pkg/admission/limitranger/admission.go}). On pod create it first gives
 * every container and init container the {@code default} limits and {@code defaultRequest} requests of the
 * namespace's Container items that it does not set, recording what it set in the annotation
 * {@value #ANNOTATION}; then it checks min, max and maxLimitRequestRatio per container (type Container) and on the
 * pod's aggregate (type Pod), and the storage request of a PersistentVolumeClaim (create and update) against
 * min and max. Pods being deleted and pod updates are not checked, as upstream.
 *
 * <p>Requests that only a limit set were already defaulted to that limit by {@link ResourceRequirements}, as the API
 * server's defaulting does before admission.
 */
public final class LimitRangerPlugin implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  public static final String NAME = "LimitRanger";
  /** The annotation naming the defaults applied. */
  public static final String ANNOTATION = "kubernetes.io/limit-ranger";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict mutate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() != AdmissionOperation.CREATE || !(request.object() instanceof Pod pod)
        || pod.metadata().deletionTimestamp() != null) {
      return AdmissionVerdict.allow();
    }
    Pod out = pod;
    for (LimitRange lr : store.list(LimitRange.class, pod.metadata().namespace()).items()) {
      out = applyDefaults(lr, out);
    }
    return out == pod ? AdmissionVerdict.allow() : AdmissionVerdict.mutate(out);
  }

  /**
   * {@code pod} with the Container defaults of {@code lr} filled in ({@code PodMutateLimitFunc}), and the annotation
   * {@code LimitRanger plugin set: cpu, memory request for container c; cpu limit for container c}; {@code pod}
   * itself when nothing was missing.
   */
  public static Pod applyDefaults(LimitRange lr, Pod pod) {
    LimitRangeItem item = lr.item(LimitType.Container);
    if (item == null || item.defaultLimit().isEmpty() && item.defaultRequest().isEmpty()) {
      return pod;
    }
    List<String> notes = new ArrayList<>();
    PodSpec spec = pod.spec();
    List<Container> containers = merge(spec.containers(), item, "container", notes);
    List<Container> inits = merge(spec.initContainers(), item, "init container", notes);
    if (notes.isEmpty()) {
      return pod;
    }
    Map<String, String> annotations = new HashMap<>(pod.metadata().annotations());
    annotations.put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", notes));
    PodSpec newSpec = spec.toBuilder().containers(containers).initContainers(inits).build();
    return pod.withSpec(newSpec).withMetadata(pod.metadata().toBuilder().annotations(annotations).build());
  }

  private static List<Container> merge(List<Container> in, LimitRangeItem item, String prefix, List<String> notes) {
    List<Container> out = new ArrayList<>(in.size());
    for (Container c : in) {
      ResourceRequirements r = c.resources();
      List<String> setLimits = LimitConstraints.missing(item.defaultLimit(), r.limits());
      List<String> setRequests = LimitConstraints.missing(item.defaultRequest(), r.requests());
      if (setLimits.isEmpty() && setRequests.isEmpty()) {
        out.add(c);
        continue;
      }
      ResourceList.Builder limits = ResourceList.builder();
      r.limits().asMap().forEach(limits::put);
      setLimits.forEach(n -> limits.put(n, item.defaultLimit().get(n)));
      ResourceList.Builder requests = ResourceList.builder();
      r.requests().asMap().forEach(requests::put);
      setRequests.forEach(n -> requests.put(n, item.defaultRequest().get(n)));
      out.add(c.withResources(new ResourceRequirements(requests.build(), limits.build(), c.resources().claims())));
      if (!setRequests.isEmpty()) {
        notes.add(String.join(", ", setRequests) + " request for " + prefix + " " + c.name());
      }
      if (!setLimits.isEmpty()) {
        notes.add(String.join(", ", setLimits) + " limit for " + prefix + " " + c.name());
      }
    }
    return out;
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (request.object() instanceof Pod pod) {
      if (request.operation() != AdmissionOperation.CREATE || pod.metadata().deletionTimestamp() != null) {
        return AdmissionVerdict.allow();
      }
      List<String> errs = new ArrayList<>();
      for (LimitRange lr : store.list(LimitRange.class, pod.metadata().namespace()).items()) {
        errs.addAll(podErrors(lr, pod));
      }
      return verdict("spec.containers", errs);
    }
    if (request.object() instanceof PersistentVolumeClaim pvc && request.operation() != AdmissionOperation.DELETE
        && pvc.metadata().deletionTimestamp() == null) {
      List<String> errs = new ArrayList<>();
      for (LimitRange lr : store.list(LimitRange.class, pvc.metadata().namespace()).items()) {
        errs.addAll(claimErrors(lr, pvc));
      }
      return verdict("spec.resources.requests", errs);
    }
    return AdmissionVerdict.allow();
  }

  /** Upstream aggregates several errors as {@code [e1, e2]}. */
  private static AdmissionVerdict verdict(String field, List<String> errs) {
    if (errs.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    return AdmissionVerdict.deny(field, errs.size() == 1 ? errs.get(0) : "[" + String.join(", ", errs) + "]");
  }

  /** Every violation of {@code lr} by {@code pod} ({@code PodValidateLimitFunc}); empty when it complies. */
  public static List<String> podErrors(LimitRange lr, Pod pod) {
    List<String> errs = new ArrayList<>();
    PodSpec spec = pod.spec();
    for (LimitRangeItem item : lr.spec().limits()) {
      if (item.type() == LimitType.Container) {
        for (Container c : spec.containers()) {
          LimitConstraints.check(item, c.resources().requests(), c.resources().limits(), errs);
        }
        for (Container c : spec.initContainers()) {
          LimitConstraints.check(item, c.resources().requests(), c.resources().limits(), errs);
        }
      } else if (item.type() == LimitType.Pod) {
        // upstream's podRequests/podLimits: the containers' aggregate, pod-level values first, no overhead
        LimitConstraints.check(item, spec.effectiveRequestsExcludingOverhead(),
            spec.effectiveLimitsExcludingOverhead(), errs);
      }
    }
    return errs;
  }

  /** Every violation of {@code lr} by {@code pvc} ({@code PersistentVolumeClaimValidateLimitFunc}). */
  public static List<String> claimErrors(LimitRange lr, PersistentVolumeClaim pvc) {
    List<String> errs = new ArrayList<>();
    ResourceList requests = pvc.spec().resources().requests();
    for (LimitRangeItem item : lr.spec().limits()) {
      if (item.type() == LimitType.PersistentVolumeClaim) {
        String type = item.type().name();
        item.min().asMap().forEach((r, v) -> {
          String e = LimitConstraints.min(type, r, v, requests, ResourceList.EMPTY);
          if (e != null) {
            errs.add(e);
          }
        });
        item.max().asMap().forEach((r, v) -> {
          String e = LimitConstraints.maxRequest(type, r, v, requests);
          if (e != null) {
            errs.add(e);
          }
        });
      }
    }
    return errs;
  }
}
