package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container of a pod, regular or init. Validated as part of its pod (names unique, image required, requests
 * within limits).
 *
 * @param env the container's environment variables, in order (a later one may refer to an earlier one)
 * @param envFrom ConfigMaps and Secrets whose every key becomes a variable; {@code env} replaces a variable of the
 *     same name
 * @param restartPolicy {@code Always} on an init container makes it a sidecar; {@code null} otherwise
 * @param livenessProbe restarts the container when it fails; {@code null} when none
 * @param readinessProbe decides whether the container is ready; {@code null} when none (ready once started)
 * @param startupProbe holds back the other probes until it succeeds; {@code null} when none
 * @param lifecycle the {@code postStart} and {@code preStop} hooks; {@code null} when none
 * @param volumeMounts the pod's volumes this container mounts, in order; empty when none ({@code null} becomes empty)
 */
public record Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
    List<EnvVar> env, List<EnvFromSource> envFrom, @Nullable ContainerRestartPolicy restartPolicy,
    @Nullable Probe livenessProbe, @Nullable Probe readinessProbe, @Nullable Probe startupProbe,
    @Nullable Lifecycle lifecycle, List<VolumeMount> volumeMounts) {

  public Container {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(resources, "resources");
    ports = List.copyOf(ports);
    env = List.copyOf(env);
    envFrom = List.copyOf(envFrom);
    // an encoding written without the component (the store's JSON) decodes as unset
    volumeMounts = volumeMounts == null || volumeMounts.isEmpty() ? List.of() : List.copyOf(volumeMounts);
  }

  /** A container without volume mounts. */
  public Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
      List<EnvVar> env, List<EnvFromSource> envFrom, @Nullable ContainerRestartPolicy restartPolicy,
      @Nullable Probe livenessProbe, @Nullable Probe readinessProbe, @Nullable Probe startupProbe,
      @Nullable Lifecycle lifecycle) {
    this(name, image, resources, ports, env, envFrom, restartPolicy, livenessProbe, readinessProbe, startupProbe,
        lifecycle, List.of());
  }

  /** A container without {@code envFrom}. */
  public Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
      List<EnvVar> env, @Nullable ContainerRestartPolicy restartPolicy, @Nullable Probe livenessProbe,
      @Nullable Probe readinessProbe, @Nullable Probe startupProbe, @Nullable Lifecycle lifecycle) {
    this(name, image, resources, ports, env, List.of(), restartPolicy, livenessProbe, readinessProbe, startupProbe,
        lifecycle);
  }

  /** A container without lifecycle hooks. */
  public Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
      List<EnvVar> env, @Nullable ContainerRestartPolicy restartPolicy, @Nullable Probe livenessProbe,
      @Nullable Probe readinessProbe, @Nullable Probe startupProbe) {
    this(name, image, resources, ports, env, restartPolicy, livenessProbe, readinessProbe, startupProbe, null);
  }

  /** A container without probes or lifecycle hooks. */
  public Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
      List<EnvVar> env, @Nullable ContainerRestartPolicy restartPolicy) {
    this(name, image, resources, ports, env, restartPolicy, null, null, null, null);
  }

  /** A container with requests only (see {@link ResourceRequirements#ofRequests}). */
  public static Container of(String name, String image, ResourceList requests) {
    return new Container(name, image, ResourceRequirements.ofRequests(requests), List.of(), List.of(), null);
  }

  public static Container of(String name, String image, ResourceRequirements resources) {
    return new Container(name, image, resources, List.of(), List.of(), null);
  }

  /** A sidecar: an init container with restart policy {@code Always}. */
  public static Container sidecar(String name, String image, ResourceList requests) {
    return new Container(name, image, ResourceRequirements.ofRequests(requests), List.of(), List.of(),
        ContainerRestartPolicy.Always);
  }

  /** Whether this is a restartable (sidecar) init container. */
  public boolean isRestartable() {
    return restartPolicy == ContainerRestartPolicy.Always;
  }

  public Container withResources(ResourceRequirements newResources) {
    return new Container(name, image, newResources, ports, env, envFrom, restartPolicy, livenessProbe, readinessProbe,
        startupProbe, lifecycle, volumeMounts);
  }

  /** This container with other ports. */
  public Container withPorts(List<ContainerPort> newPorts) {
    return new Container(name, image, resources, newPorts, env, envFrom, restartPolicy, livenessProbe, readinessProbe,
        startupProbe, lifecycle, volumeMounts);
  }

  /** This container with another image. */
  public Container withImage(String newImage) {
    return new Container(name, newImage, resources, ports, env, envFrom, restartPolicy, livenessProbe, readinessProbe,
        startupProbe, lifecycle, volumeMounts);
  }

  /** This container with other environment variables. */
  public Container withEnv(List<EnvVar> newEnv) {
    return new Container(name, image, resources, ports, newEnv, envFrom, restartPolicy, livenessProbe, readinessProbe,
        startupProbe, lifecycle, volumeMounts);
  }

  /** This container with other {@code envFrom} sources. */
  public Container withEnvFrom(List<EnvFromSource> newEnvFrom) {
    return new Container(name, image, resources, ports, env, newEnvFrom, restartPolicy, livenessProbe,
        readinessProbe, startupProbe, lifecycle, volumeMounts);
  }

  /** This container with other lifecycle hooks ({@code null} for none). */
  public Container withLifecycle(@Nullable Lifecycle newLifecycle) {
    return new Container(name, image, resources, ports, env, envFrom, restartPolicy, livenessProbe,
        readinessProbe, startupProbe, newLifecycle, volumeMounts);
  }

  /** This container with the given probes ({@code null} for none). */
  public Container withProbes(@Nullable Probe liveness, @Nullable Probe readiness, @Nullable Probe startup) {
    return new Container(name, image, resources, ports, env, envFrom, restartPolicy, liveness, readiness, startup,
        lifecycle, volumeMounts);
  }

  /** This container with other volume mounts. */
  public Container withVolumeMounts(List<VolumeMount> newVolumeMounts) {
    return new Container(name, image, resources, ports, env, envFrom, restartPolicy, livenessProbe, readinessProbe,
        startupProbe, lifecycle, newVolumeMounts);
  }

  /** Whether this container mounts a volume at {@code path}. */
  public boolean mountsAt(String path) {
    for (VolumeMount m : volumeMounts) {
      if (m.mountPath().equals(path)) {
        return true;
      }
    }
    return false;
  }

  /** The probe of {@code type}, or {@code null} when the container declares none. */
  public @Nullable Probe probe(ProbeType type) {
    return switch (type) {
      case Liveness -> livenessProbe;
      case Readiness -> readinessProbe;
      case Startup -> startupProbe;
    };
  }
}
