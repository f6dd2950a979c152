package io.fleetkit.api.framework;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of a plugin call, as kube-scheduler's {@code framework.Status}: a closed {@link Code}, the reasons a
 * user can act on (aggregated into {@code 0/5000 nodes are available: ...}), and the plugin that said it.
 *
 * <p>Expected outcomes are values, never exceptions. {@link #success()} is a shared constant: returning it
 * allocates nothing.
 */
public record Status(Code code, List<String> reasons, @Nullable String plugin) {
  /** The closed set of outcomes. */
  public enum Code {
    /** The pod may proceed. */
    SUCCESS,
    /** The pod does not fit here now; preemption might help. */
    UNSCHEDULABLE,
    /** The pod does not fit here and preemption cannot help (e.g. an untolerated taint). */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    /** Permit only: hold the reservation until allowed, rejected or timed out. */
    WAIT,
    /** The plugin has nothing to do for this pod (its later calls are skipped, or the next binder is tried). */
    SKIP,
    /** An internal failure; the pod goes to backoff. */
    ERROR,
    /**
     * The pod waits for something outside the scheduler (kube's {@code Pending}, e.g. a device driver provisioning a
     * resource): a rejection ({@link #isRejected()}) returned by Filter, Reserve, Permit or PreBind, after which the
     * plugin is a pending plugin of the pod. No backoff applies when the plugin's queueing hint answers Queue for
     * a later event: the pod goes straight back to activeQ. Preemption does not consider a node a pending plugin
     * rejected. From PreFilter it is an error, as upstream.
     */
    PENDING
  }

  private static final Status SUCCESS = new Status(Code.SUCCESS, List.of(), null);
  private static final Status SKIP = new Status(Code.SKIP, List.of(), null);
  private static final Status WAIT = new Status(Code.WAIT, List.of(), null);

  public Status {
    Objects.requireNonNull(code, "code");
    reasons = List.copyOf(reasons);
  }

  public static Status success() {
    return SUCCESS;
  }

  public static Status skip() {
    return SKIP;
  }

  public static Status waiting() {
    return WAIT;
  }

  public static Status unschedulable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE, List.of(reasons), null);
  }

  public static Status unresolvable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reasons), null);
  }

  /** A {@link Code#PENDING} status. */
  public static Status pending(String... reasons) {
    return new Status(Code.PENDING, List.of(reasons), null);
  }

  public static Status error(String reason) {
    return new Status(Code.ERROR, List.of(reason), null);
  }

  /** This status attributed to {@code pluginName} (the framework does this for plugins). */
  public Status withPlugin(String pluginName) {
    return Objects.equals(plugin, pluginName) ? this : new Status(code, reasons, pluginName);
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  public boolean isSkip() {
    return code == Code.SKIP;
  }

  public boolean isWait() {
    return code == Code.WAIT;
  }

  /** UNSCHEDULABLE, UNSCHEDULABLE_AND_UNRESOLVABLE or PENDING (kube's {@code IsRejected}). */
  public boolean isRejected() {
    return code == Code.UNSCHEDULABLE || code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE || code == Code.PENDING;
  }

  /** The reasons joined with ", ". */
  public String message() {
    return String.join(", ", reasons);
  }
}
