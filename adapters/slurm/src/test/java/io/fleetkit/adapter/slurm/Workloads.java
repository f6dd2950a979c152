package io.fleetkit.adapter.slurm;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PodGroupSpec;
import io.fleetkit.api.scheduling.PodGroupStatus;
import java.util.List;
import java.util.Map;

/** Test fixtures: FleetKit workloads with Slurm annotations. */
final class Workloads {
  private Workloads() {}

  static PodSpec pod(String cpu, String memory, int gpus, Map<String, String> env) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", cpu).put("memory", memory);
    if (gpus > 0) {
      r.put("nvidia.com/gpu", Integer.toString(gpus));
    }
    List<EnvVar> vars = env.entrySet().stream().map(e -> new EnvVar(e.getKey(), e.getValue())).toList();
    return PodSpec.builder().restartPolicy(RestartPolicy.Never)
        .container(new Container("main", "busybox", ResourceRequirements.ofRequests(r.build()), List.of(), vars, null))
        .build();
  }

  static ObjectMeta meta(String name, Map<String, String> annotations) {
    return ObjectMeta.builder().namespace("team").name(name).annotations(annotations).build();
  }

  static Job job(String name, int parallelism, Integer completions, PodSpec pod, Map<String, String> annotations) {
    return Job.builder().metadata(meta(name, annotations)).parallelism(parallelism).completions(completions)
        .podSpec(pod).build();
  }

  static PodGroup group(String name, int minMember, Map<String, String> annotations) {
    return new PodGroup(meta(name, annotations), PodGroupSpec.of(minMember), PodGroupStatus.PENDING);
  }
}
