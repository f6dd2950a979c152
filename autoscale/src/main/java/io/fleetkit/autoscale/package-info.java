/**
 * Autoscalers (issue 9, not yet built): HPA with Kubernetes' exact algorithm and behavior, queue-length scaling, VPA, the cluster autoscaler and provisioning.
 */
@NullMarked
package io.fleetkit.autoscale;

import org.jspecify.annotations.NullMarked;
