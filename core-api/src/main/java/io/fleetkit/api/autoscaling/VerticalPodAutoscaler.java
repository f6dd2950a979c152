package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceNames;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A VerticalPodAutoscaler ({@code autoscaling.k8s.io/v1}): recommends, and optionally applies, container requests.
 *
 * <p>The constructor checks the rules of the VPA admission controller and reports every violation at once: a
 * target reference with kind and name, a positive {@code updatePolicy.minReplicas}, one policy per container name
 * ({@code "*"} included), {@code maxAllowed} not below {@code minAllowed}, only cpu and memory controlled, at most
 * one recommender.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record VerticalPodAutoscaler(ObjectMeta metadata, VerticalPodAutoscalerSpec spec,
    VerticalPodAutoscalerStatus status) implements ApiObject<VerticalPodAutoscaler> {
  public static final String API_VERSION = "autoscaling.k8s.io/v1";
  public static final String KIND = "VerticalPodAutoscaler";

  private static final Set<String> CONTROLLABLE = Set.of(ResourceNames.CPU, ResourceNames.MEMORY);

  public VerticalPodAutoscaler {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A new VPA with an empty status. */
  public static VerticalPodAutoscaler of(ObjectMeta metadata, VerticalPodAutoscalerSpec spec) {
    return new VerticalPodAutoscaler(metadata, spec, VerticalPodAutoscalerStatus.EMPTY);
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
    return true;
  }

  @Override
  public VerticalPodAutoscaler withMetadata(ObjectMeta m) {
    return new VerticalPodAutoscaler(m, spec, status);
  }

  public VerticalPodAutoscaler withSpec(VerticalPodAutoscalerSpec s) {
    return new VerticalPodAutoscaler(metadata, s, status);
  }

  public VerticalPodAutoscaler withStatus(VerticalPodAutoscalerStatus s) {
    return new VerticalPodAutoscaler(metadata, spec, s);
  }

  @Override
  public VerticalPodAutoscaler withStatusOf(VerticalPodAutoscaler other) {
    return withStatus(other.status);
  }

  private static void validate(ObjectMeta metadata, VerticalPodAutoscalerSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1123_SUBDOMAIN);
    AutoscalingRules.crossVersionObjectReference(v, "spec.targetRef", spec.targetRef());
    PodUpdatePolicy update = spec.updatePolicy();
    if (update != null) {
      Integer min = update.minReplicas();
      if (min != null && min <= 0) {
        v.add("spec.updatePolicy.minReplicas", "MinReplicas has to be positive", min);
      }
    }
    PodResourcePolicy resources = spec.resourcePolicy();
    if (resources != null) {
      Set<String> names = new HashSet<>();
      List<ContainerResourcePolicy> policies = resources.containerPolicies();
      for (int i = 0; i < policies.size(); i++) {
        ContainerResourcePolicy p = policies.get(i);
        String path = "spec.resourcePolicy.containerPolicies[" + i + "]";
        if (p.containerName().isEmpty()) {
          v.required(path + ".containerName");
        } else {
          if (!p.containerName().equals(ContainerResourcePolicy.ALL_CONTAINERS)) {
            v.dnsLabel(path + ".containerName", p.containerName());
          }
          if (!names.add(p.containerName())) {
            v.add(path + ".containerName", Violations.DUPLICATE, p.containerName());
          }
        }
        for (Map.Entry<String, Quantity> min : p.minAllowed().asMap().entrySet()) {
          if (p.maxAllowed().has(min.getKey()) && p.maxAllowed().get(min.getKey()).compareTo(min.getValue()) < 0) {
            v.add(path + ".maxAllowed." + min.getKey(), "max resource for " + min.getKey() + " is lower than min",
                p.maxAllowed().get(min.getKey()));
          }
        }
        for (int j = 0; j < p.controlledResources().size(); j++) {
          String r = p.controlledResources().get(j);
          if (!CONTROLLABLE.contains(r)) {
            v.add(path + ".controlledResources[" + j + "]", "supported values: \"cpu\", \"memory\"", r);
          }
        }
      }
    }
    if (spec.recommenders().size() > 1) {
      v.add("spec.recommenders", "The current version of VPA object shouldn't specify more than one recommenders.",
          spec.recommenders().size());
    }
    for (int i = 0; i < spec.recommenders().size(); i++) {
      if (spec.recommenders().get(i).name().isEmpty()) {
        v.required("spec.recommenders[" + i + "].name");
      }
    }
    v.throwIfAny();
  }
}
