/**
 * The DefaultBinder plugin ({@link io.fleetkit.scheduler.plugins.defaultbinder.DefaultBinderPlugin}): kube's default
 * Bind plugin, which binds a pod through the framework handle's {@link io.fleetkit.api.framework.Binder}.
 *
 * <p>The plugin is stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.defaultbinder;

import org.jspecify.annotations.NullMarked;
