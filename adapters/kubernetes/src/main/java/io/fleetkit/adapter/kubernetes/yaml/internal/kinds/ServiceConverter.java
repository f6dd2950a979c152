package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.LoadBalancerStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.ServiceSpecBuilder;
import io.fabric8.kubernetes.api.model.ServiceStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.SessionAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 Service. An absent {@code targetPort} defaults to the port, and a {@code clusterIPs} without
 * {@code clusterIP} sets it, as in Kubernetes; unset optional fields ({@code ipFamilyPolicy},
 * {@code allocateLoadBalancerNodePorts}, {@code loadBalancerClass}, {@code appProtocol}, {@code externalIPs},
 * {@code loadBalancerIP}, {@code healthCheckNodePort}, where 0 is unset) stay unset both ways.
 */
public final class ServiceConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Service, Service> {
  public ServiceConverter() {
    super(Service.API_VERSION, Service.KIND, true, io.fabric8.kubernetes.api.model.Service.class, Service.class);
  }

  @Override
  public @Nullable Service toCore(io.fabric8.kubernetes.api.model.Service in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.ServiceSpec() : in.getSpec();
    List<ServicePort> ports = Fabric8Scheduling.list(s.getPorts(), "spec.ports", ctx, ServiceConverter::port);
    ServiceType type = Values.enumValue(ServiceType.class, s.getType(), ServiceType.ClusterIP, "spec.type", ctx);
    SessionAffinity affinity = Values.enumValue(SessionAffinity.class, s.getSessionAffinity(), SessionAffinity.None,
        "spec.sessionAffinity", ctx);
    var selector = Values.stringMap(s.getSelector(), "spec.selector", ctx);
    List<IPFamily> families = Values.enumList(IPFamily.class, s.getIpFamilies(), "spec.ipFamilies", ctx);
    ServiceTrafficPolicy itp = Values.enumValue(ServiceTrafficPolicy.class, s.getInternalTrafficPolicy(),
        ServiceTrafficPolicy.Cluster, "spec.internalTrafficPolicy", ctx);
    ServiceTrafficPolicy etp = Values.enumValue(ServiceTrafficPolicy.class, s.getExternalTrafficPolicy(),
        ServiceTrafficPolicy.Cluster, "spec.externalTrafficPolicy", ctx);
    var affinityConfig = s.getSessionAffinityConfig();
    Integer timeout = affinityConfig == null || affinityConfig.getClientIP() == null ? null
        : affinityConfig.getClientIP().getTimeoutSeconds();
    IPFamilyPolicy policy = Values.enumValue(IPFamilyPolicy.class, s.getIpFamilyPolicy(), null,
        "spec.ipFamilyPolicy", ctx);
    List<String> clusterIPs = Values.stringList(s.getClusterIPs(), "spec.clusterIPs", ctx);
    // as the API server's strategy: a clusterIPs without clusterIP sets it
    String clusterIP = s.getClusterIP() == null || s.getClusterIP().isEmpty()
        ? (clusterIPs.isEmpty() ? "" : clusterIPs.get(0)) : s.getClusterIP();
    List<String> externalIPs = Values.stringList(s.getExternalIPs(), "spec.externalIPs", ctx);
    // an int in Kubernetes: 0 is unset
    Integer healthCheckNodePort = s.getHealthCheckNodePort() == null || s.getHealthCheckNodePort() == 0 ? null
        : s.getHealthCheckNodePort();
    List<String> sourceRanges = Values.stringList(s.getLoadBalancerSourceRanges(), "spec.loadBalancerSourceRanges",
        ctx);
    ServiceSpec spec = ctx.build("spec", () -> ServiceSpec.builder().selector(selector).ports(ports).type(type)
        .clusterIP(clusterIP).sessionAffinity(affinity).clusterIPs(clusterIPs).ipFamilies(families)
        .publishNotReadyAddresses(Values.boolOr(s.getPublishNotReadyAddresses(), false))
        .externalName(Values.orEmpty(s.getExternalName())).internalTrafficPolicy(itp).externalTrafficPolicy(etp)
        .trafficDistribution(Values.orEmpty(s.getTrafficDistribution()))
        .sessionAffinityTimeoutSeconds(timeout == null ? ServiceSpec.DEFAULT_AFFINITY_TIMEOUT : timeout)
        .ipFamilyPolicy(policy).loadBalancerSourceRanges(sourceRanges)
        .allocateLoadBalancerNodePorts(s.getAllocateLoadBalancerNodePorts())
        .loadBalancerClass(Values.orEmpty(s.getLoadBalancerClass())).externalIPs(externalIPs)
        .loadBalancerIP(Values.orEmpty(s.getLoadBalancerIP())).healthCheckNodePort(healthCheckNodePort).build());
    ServiceStatus status = ServiceStatus.EMPTY;
    var lb = in.getStatus() == null ? null : in.getStatus().getLoadBalancer();
    if (lb != null && lb.getIngress() != null && !lb.getIngress().isEmpty()) {
      List<LoadBalancerIngress> ingress = Fabric8Scheduling.list(lb.getIngress(), "status.loadBalancer.ingress",
          ctx, (i, p, c) -> c.build(p, () -> new LoadBalancerIngress(Values.orEmpty(i.getIp()),
              Values.orEmpty(i.getHostname()))));
      status = new ServiceStatus(new LoadBalancerStatus(ingress));
    }
    ServiceStatus st = status;
    return spec == null ? null : ctx.buildWarned("", () -> new Service(meta, spec, st), Service::warnings);
  }

  private static @Nullable ServicePort port(io.fabric8.kubernetes.api.model.ServicePort p, String path,
      DocumentContext ctx) {
    if (p.getPort() == null) {
      ctx.error(path + ".port", "is required", null);
      return null;
    }
    ServiceProtocol protocol = Values.enumValue(ServiceProtocol.class, p.getProtocol(), ServiceProtocol.TCP,
        path + ".protocol", ctx);
    IntOrString t = p.getTargetPort();
    ServiceTargetPort target;
    if (t == null || (t.getIntVal() == null && (t.getStrVal() == null || t.getStrVal().isEmpty()))) {
      target = ServiceTargetPort.of(p.getPort());
    } else if (t.getIntVal() != null) {
      target = ServiceTargetPort.of(t.getIntVal());
    } else {
      target = ServiceTargetPort.parse(t.getStrVal());
    }
    return ctx.build(path, () -> new ServicePort(Values.orEmpty(p.getName()), protocol, p.getPort(), target,
        p.getNodePort(), Values.orEmpty(p.getAppProtocol())));
  }

  @Override
  public io.fabric8.kubernetes.api.model.Service toFabric8(Service in) {
    ServiceSpec s = in.spec();
    LoadBalancerStatus lb = in.status().loadBalancer();
    return new ServiceBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new ServiceSpecBuilder()
            .withSelector(Values.emptyToNull(new java.util.TreeMap<>(s.selector())))
            .withPorts(Fabric8Scheduling.out(s.ports(), p -> new ServicePortBuilder()
                .withName(Values.emptyToNull(p.name()))
                .withProtocol(p.protocol() == ServiceProtocol.TCP ? null : p.protocol().name())
                .withPort(p.port())
                .withTargetPort(p.targetPort().isNamed() ? new IntOrString(p.targetPort().name())
                    : p.targetPort().number() == p.port() ? null : new IntOrString(p.targetPort().number()))
                .withNodePort(p.nodePort())
                .withAppProtocol(Values.emptyToNull(p.appProtocol())).build()))
            .withType(s.type() == ServiceType.ClusterIP ? null : s.type().name())
            .withClusterIP(Values.emptyToNull(s.clusterIP()))
            .withSessionAffinity(s.sessionAffinity() == SessionAffinity.None ? null : s.sessionAffinity().name())
            .withClusterIPs(s.clusterIPs().isEmpty() ? null : s.clusterIPs())
            .withIpFamilies(Values.names(s.ipFamilies()))
            .withPublishNotReadyAddresses(s.publishNotReadyAddresses() ? Boolean.TRUE : null)
            .withExternalName(Values.emptyToNull(s.externalName()))
            .withInternalTrafficPolicy(s.internalTrafficPolicy() == ServiceTrafficPolicy.Cluster ? null
                : s.internalTrafficPolicy().name())
            .withExternalTrafficPolicy(s.externalTrafficPolicy() == ServiceTrafficPolicy.Cluster ? null
                : s.externalTrafficPolicy().name())
            .withTrafficDistribution(Values.emptyToNull(s.trafficDistribution()))
            .withIpFamilyPolicy(s.ipFamilyPolicy() == null ? null : s.ipFamilyPolicy().name())
            .withLoadBalancerSourceRanges(Values.emptyToNull(s.loadBalancerSourceRanges()))
            .withAllocateLoadBalancerNodePorts(s.allocateLoadBalancerNodePorts())
            .withLoadBalancerClass(Values.emptyToNull(s.loadBalancerClass()))
            .withExternalIPs(Values.emptyToNull(s.externalIPs()))
            .withLoadBalancerIP(Values.emptyToNull(s.loadBalancerIP()))
            .withHealthCheckNodePort(s.healthCheckNodePort())
            .withSessionAffinityConfig(s.sessionAffinityTimeoutSeconds() == ServiceSpec.DEFAULT_AFFINITY_TIMEOUT ? null
                : new io.fabric8.kubernetes.api.model.SessionAffinityConfigBuilder().withNewClientIP()
                    .withTimeoutSeconds(s.sessionAffinityTimeoutSeconds()).endClientIP().build())
            .build())
        .withStatus(lb == null ? null : new ServiceStatusBuilder().withLoadBalancer(new LoadBalancerStatusBuilder()
            .withIngress(Fabric8Scheduling.out(lb.ingress(), i -> new LoadBalancerIngressBuilder()
                .withIp(Values.emptyToNull(i.ip())).withHostname(Values.emptyToNull(i.hostname())).build()))
            .build()).build())
        .build();
  }
}
