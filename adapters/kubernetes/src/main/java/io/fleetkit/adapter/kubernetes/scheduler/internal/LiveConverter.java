package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.KindConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.KindRegistry;
import io.fleetkit.api.meta.ApiObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Converts live fabric8 objects (from informers) to core-api records with the YAML loader's {@link KindConverter}s,
 * so both paths share one mapping. Live pods carry volume sources the core model does not represent (projected
 * service-account tokens, downward API, CSI...); they do not matter for scheduling and are dropped first, keeping
 * only the sources the model knows. An object that still fails to convert is logged and skipped ({@code null}).
 * Stateless and thread-safe.
 */
public final class LiveConverter {
  private static final Logger LOG = LoggerFactory.getLogger(LiveConverter.class);
  private static final String SOURCE = "kubernetes-api";

  private LiveConverter() {}

  /**
   * The core record for {@code in} of kind {@code kind} (one of {@link KindRegistry#standard()}), or {@code null}
   * when the object cannot be represented (logged at WARN with every problem).
   *
   * @throws IllegalArgumentException if {@code kind} is not a kind FleetKit models
   */
  public static <C extends ApiObject<C>> @Nullable C toCore(String kind, HasMetadata in) {
    Objects.requireNonNull(in, "in");
    KindConverter<Object, C> converter = converter(kind);
    Object input = in instanceof io.fabric8.kubernetes.api.model.Pod p ? withSchedulingVolumesOnly(p) : in;
    DocumentContext ctx = DocumentContext.detached(SOURCE);
    C out;
    try {
      out = converter.toCore(input, ctx);
    } catch (RuntimeException e) {
      LOG.warn("skipping {} {}: cannot convert it: {}", kind, key(in), e.toString());
      return null;
    }
    if (out == null || ctx.hasErrors()) {
      LOG.warn("skipping {} {}: {}", kind, key(in), ctx.problems());
      return null;
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <C extends ApiObject<C>> KindConverter<Object, C> converter(String kind) {
    KindConverter<?, ?> c = KindRegistry.standard().forKind(kind);
    if (c == null) {
      throw new IllegalArgumentException("live converter: kind \"" + kind + "\" is not one of "
          + KindRegistry.standard().kinds());
    }
    return (KindConverter<Object, C>) c;
  }

  /** {@code namespace/name} (or {@code name}), as fabric8's informer cache keys objects. */
  public static String key(HasMetadata o) {
    String ns = o.getMetadata() == null ? null : o.getMetadata().getNamespace();
    String name = o.getMetadata() == null ? null : o.getMetadata().getName();
    return ns == null || ns.isEmpty() ? String.valueOf(name) : ns + "/" + name;
  }

  private static io.fabric8.kubernetes.api.model.Pod withSchedulingVolumesOnly(io.fabric8.kubernetes.api.model.Pod p) {
    if (p.getSpec() == null || p.getSpec().getVolumes() == null) {
      return p;
    }
    List<Volume> keep = new ArrayList<>();
    for (Volume v : p.getSpec().getVolumes()) {
      if (v.getPersistentVolumeClaim() != null || v.getEmptyDir() != null || v.getHostPath() != null
          || v.getConfigMap() != null || v.getSecret() != null) {
        keep.add(v);
      }
    }
    if (keep.size() == p.getSpec().getVolumes().size()) {
      return p;
    }
    return new PodBuilder(p).editSpec().withVolumes(keep).endSpec().build();
  }
}
