package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.autoscaling.NodePoolSpec;
import io.fleetkit.api.autoscaling.NodePoolStatus;
import io.fleetkit.api.autoscaling.NodeTemplate;
import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * fleetkit.io/v1alpha1 NodePool, FleetKit's own CRD for the cluster autoscaler:
 * <pre>
 * spec:
 *   template: {labels: {..}, taints: [..], capacity: {..}, allocatable: {..}, gpus: [..]}
 *     resourceSlices:        # DRA devices every node gets: one node-local ResourceSlice per entry
 *     - driver: gpu.example.com
 *       pool: gpus           # the node's pool is named <node>-gpus
 *       devices: [..]        # as a ResourceSlice's spec.devices (no per-device node selection)
 *   minSize: 0
 *   maxSize: 10
 *   startupDelay: 90s        # a Go duration (1h30m, 45s, 500ms)
 *   pricePerHour: 3.06
 *   zeroOrMaxNodeScaling: false   # true: the pool scales atomically, to zero or to maxSize (the cluster autoscaler's
 *                                 # node group option of that name)
 *   autoscalingOptions:      # the pool's own cluster-autoscaler settings, each optional (upstream's per node group
 *     scaleDownUtilizationThreshold: 0.7       # NodeGroupAutoscalingOptions)
 *     scaleDownGpuUtilizationThreshold: 0.6
 *     scaleDownUnneededTime: 1h
 *     scaleDownUnreadyTime: 30m
 *     maxNodeProvisionTime: 25m
 *     maxNodeStartupTime: 25m
 * status: {currentSize: 2, lastScaleTime: "2024-05-01T10:00:00Z"}
 * </pre>
 */
public final class NodePoolConverter extends AbstractKindConverter<GenericKubernetesResource, NodePool> {
  public NodePoolConverter() {
    super(NodePool.API_VERSION, NodePool.KIND, false, GenericKubernetesResource.class, NodePool.class);
  }
  private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
      new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

  @Override
  public @Nullable NodePool toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    Map<String, Object> t = Untyped.map(spec, "template", "spec.template", ctx);
    var labels = Untyped.stringMap(t, "labels", "spec.template.labels", ctx);
    List<Taint> taints = UntypedScheduling.taints(t, "taints", "spec.template.taints", ctx);
    var capacity = Untyped.resources(t, "capacity", "spec.template.capacity", ctx);
    var allocatable = Untyped.resources(t, "allocatable", "spec.template.allocatable", ctx);
    var gpus = NodeConverter.gpus(t, "spec.template.gpus", ctx);
    List<ResourceSliceTemplate> slices = Untyped.entries(t, "resourceSlices", "spec.template.resourceSlices", ctx,
        NodePoolConverter::sliceTemplate);
    NodeTemplate template = ctx.build("spec.template", () -> new NodeTemplate(labels, taints, capacity, allocatable,
        gpus, slices));
    Integer min = Untyped.int32(spec, "minSize", "spec.minSize", ctx);
    Integer max = Untyped.int32(spec, "maxSize", "spec.maxSize", ctx);
    if (max == null && !spec.containsKey("maxSize")) {
      ctx.error("spec.maxSize", "is required", null);
    }
    Duration delay = duration(Untyped.string(spec, "startupDelay", "", "spec.startupDelay", ctx),
        "spec.startupDelay", ctx);
    Double price = Untyped.number(spec, "pricePerHour", "spec.pricePerHour", ctx);
    Boolean atomic = Untyped.bool(spec, "zeroOrMaxNodeScaling", "spec.zeroOrMaxNodeScaling", ctx);
    NodePoolAutoscalingOptions options = autoscalingOptions(Untyped.map(spec, "autoscalingOptions",
        "spec.autoscalingOptions", ctx), ctx);
    NodePoolSpec coreSpec = template == null || max == null ? null : ctx.build("spec", () -> new NodePoolSpec(
        template, min == null ? 0 : min, max, delay, price == null ? 0 : price, Boolean.TRUE.equals(atomic),
        options));
    Map<String, Object> st = GenericKinds.section(in, "status", ctx);
    Integer current = Untyped.int32(st, "currentSize", "status.currentSize", ctx);
    var lastScale = Values.instant(Untyped.string(st, "lastScaleTime", "", "status.lastScaleTime", ctx),
        "status.lastScaleTime", ctx);
    NodePoolStatus status = new NodePoolStatus(current == null ? 0 : current, lastScale);
    return coreSpec == null ? null : ctx.build("", () -> new NodePool(meta, coreSpec, status));
  }

  private static final java.util.Set<String> SLICE_TEMPLATE_KEYS = java.util.Set.of("driver", "pool", "devices");

  /** One device template: {@code driver}, {@code pool} and {@code devices} as a ResourceSlice's. */
  private static @Nullable ResourceSliceTemplate sliceTemplate(Map<String, Object> m, String path,
      DocumentContext ctx) {
    Untyped.known(m, SLICE_TEMPLATE_KEYS, path, ctx);
    String driver = Untyped.string(m, "driver", "", path + ".driver", ctx);
    String pool = Untyped.string(m, "pool", "", path + ".pool", ctx);
    List<Object> raw = Untyped.list(m, "devices", path + ".devices", ctx);
    List<Device> devices = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String p = path + ".devices[" + i + "]";
      Map<String, Object> dm = Untyped.asMap(raw.get(i), p, ctx);
      io.fabric8.kubernetes.api.model.resource.v1.Device f8;
      try {
        f8 = SERIALIZATION.convertValue(dm, io.fabric8.kubernetes.api.model.resource.v1.Device.class);
      } catch (RuntimeException e) {
        ctx.error(p, "is not a device: " + e.getMessage(), null);
        continue;
      }
      for (String unknown : f8.getAdditionalProperties().keySet()) {
        ctx.error(p + "." + unknown, "unknown field", null);
      }
      if (f8.getNodeName() != null || f8.getNodeSelector() != null || f8.getAllNodes() != null) {
        ctx.error(p, "a device template has no node selection of its own (its node is the pool's node)", null);
        continue;
      }
      Device d = ResourceSliceConverter.device(f8, p, ctx);
      if (d != null) {
        devices.add(d);
      }
    }
    return new ResourceSliceTemplate(driver, pool, devices);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> write(ResourceSliceTemplate t) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("driver", t.driver());
    out.put("pool", t.pool());
    List<Object> devices = new ArrayList<>();
    for (Device d : t.devices()) {
      devices.add(SERIALIZATION.convertValue(ResourceSliceConverter.device(d), Map.class));
    }
    out.put("devices", devices);
    return out;
  }

  private static final List<String> OPTION_KEYS = List.of("scaleDownUtilizationThreshold",
      "scaleDownGpuUtilizationThreshold", "scaleDownUnneededTime", "scaleDownUnreadyTime", "maxNodeProvisionTime",
      "maxNodeStartupTime");

  private static NodePoolAutoscalingOptions autoscalingOptions(Map<String, Object> o, DocumentContext ctx) {
    String path = "spec.autoscalingOptions";
    for (String key : o.keySet()) {
      if (!OPTION_KEYS.contains(key)) {
        ctx.error(path + "." + key, "unknown field (known: " + String.join(", ", OPTION_KEYS) + ")", null);
      }
    }
    Double threshold = Untyped.number(o, OPTION_KEYS.get(0), path + "." + OPTION_KEYS.get(0), ctx);
    Double gpuThreshold = Untyped.number(o, OPTION_KEYS.get(1), path + "." + OPTION_KEYS.get(1), ctx);
    return new NodePoolAutoscalingOptions(threshold, gpuThreshold, optionalDuration(o, OPTION_KEYS.get(2), ctx),
        optionalDuration(o, OPTION_KEYS.get(3), ctx), optionalDuration(o, OPTION_KEYS.get(4), ctx),
        optionalDuration(o, OPTION_KEYS.get(5), ctx));
  }

  private static @Nullable Duration optionalDuration(Map<String, Object> o, String key, DocumentContext ctx) {
    String path = "spec.autoscalingOptions." + key;
    String text = Untyped.string(o, key, "", path, ctx);
    return o.containsKey(key) ? duration(text, path, ctx) : null;
  }

  /**
   * A Go duration ({@code 1h30m}, {@code 90s}, {@code 500ms}, {@code 1.5s}, {@code 0}) as {@link Values#duration}
   * reads it; zero when empty or (reported) refused.
   */
  static Duration duration(String text, String path, DocumentContext ctx) {
    Duration d = text.isEmpty() ? null : Values.duration(text, path, ctx);
    return d == null ? Duration.ZERO : d;
  }

  /**
   * The duration at {@code key} of a block whose path is {@code blockPath}, or {@code null} when the block does not
   * set it (a problem naming {@code blockPath.key} when it is not a Go duration).
   */
  static @Nullable Duration optionalDuration(Map<String, Object> m, String key, String blockPath,
      DocumentContext ctx) {
    if (!m.containsKey(key)) {
      return null;
    }
    String path = blockPath + "." + key;
    return duration(Untyped.string(m, key, "", path, ctx), path, ctx);
  }

  /** Go's spelling of {@code d} ({@link GoDurations#format}): {@code 1h30m0s}, {@code 1m30s}, {@code 1.5s}. */
  static String duration(Duration d) {
    return GoDurations.format(d);
  }

  static void putDuration(Map<String, Object> m, String key, @Nullable Duration d) {
    if (d != null) {
      m.put(key, duration(d));
    }
  }

  @Override
  public GenericKubernetesResource toFabric8(NodePool in) {
    NodePoolSpec s = in.spec();
    NodeTemplate t = s.template();
    Map<String, Object> template = new LinkedHashMap<>();
    Untyped.put(template, "labels", new java.util.TreeMap<String, Object>(t.labels()));
    Untyped.put(template, "taints", UntypedScheduling.write(t.taints()));
    Untyped.put(template, "capacity", Untyped.resources(t.capacity()));
    if (!t.allocatable().equals(t.capacity())) {
      Untyped.put(template, "allocatable", Untyped.resources(t.allocatable()));
    }
    Untyped.put(template, "gpus", NodeConverter.gpus(t.gpus()));
    if (!t.resourceSlices().isEmpty()) {
      template.put("resourceSlices", t.resourceSlices().stream().map(NodePoolConverter::write).toList());
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("template", template);
    spec.put("minSize", s.minSize());
    spec.put("maxSize", s.maxSize());
    if (!s.startupDelay().isZero()) {
      spec.put("startupDelay", duration(s.startupDelay()));
    }
    if (s.pricePerHour() != 0) {
      spec.put("pricePerHour", s.pricePerHour());
    }
    if (s.zeroOrMaxNodeScaling()) {
      spec.put("zeroOrMaxNodeScaling", true);
    }
    NodePoolAutoscalingOptions o = s.autoscalingOptions();
    if (!o.isEmpty()) {
      Map<String, Object> options = new LinkedHashMap<>();
      Untyped.put(options, OPTION_KEYS.get(0), o.scaleDownUtilizationThreshold());
      Untyped.put(options, OPTION_KEYS.get(1), o.scaleDownGpuUtilizationThreshold());
      putDuration(options, OPTION_KEYS.get(2), o.scaleDownUnneededTime());
      putDuration(options, OPTION_KEYS.get(3), o.scaleDownUnreadyTime());
      putDuration(options, OPTION_KEYS.get(4), o.maxNodeProvisionTime());
      putDuration(options, OPTION_KEYS.get(5), o.maxNodeStartupTime());
      spec.put("autoscalingOptions", options);
    }
    Map<String, Object> status = new LinkedHashMap<>();
    if (in.status().currentSize() != 0) {
      status.put("currentSize", in.status().currentSize());
    }
    Untyped.put(status, "lastScaleTime", Values.instant(in.status().lastScaleTime()));
    return GenericKinds.resource(in, spec, status);
  }
}
