/**
 * Autoscalers, on two layers. Pods: {@code hpa} (the HorizontalPodAutoscaler with Kubernetes' exact replica math and
 * {@code behavior}), {@code queue} (KEDA-style scaling on a queue length or any external value, to and from zero),
 * {@code vpa} (the VerticalPodAutoscaler recommender, updater and admission). Machines: {@code cluster} (the cluster
 * autoscaler over node pools, simulating pending pods with the scheduler's real filters) and {@code provisioner}
 * (Karpenter-style batching, cheapest instance types and consolidation).
 */
@NullMarked
package io.fleetkit.autoscale;

import org.jspecify.annotations.NullMarked;
