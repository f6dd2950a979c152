package io.fleetkit.scheduler.plugins.coscheduling;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Coscheduling plugin's bookkeeping for one pod group. Thread-safe (every method synchronizes on the instance).
 */
final class GangState {
  /** Pods seen to belong to the group (PreEnqueue and Reserve), by key. */
  private final Set<String> members = new HashSet<>();
  /** Members holding a reservation from this scheduler (waiting on Permit, or bound through it). */
  private final Set<String> reserved = new LinkedHashSet<>();
  /** The queue time of the group, pinned the first time QueueSort sees a member; {@link Long#MIN_VALUE} until then. */
  private long queueNanos = Long.MIN_VALUE;
  /** Until when (by the plugin's clock) the group is backing off, and why. */
  private long backoffUntilNanos = Long.MIN_VALUE;
  private @Nullable String failure;
  /** Set while the group's waiting members are being rejected together, to ignore the echoes. */
  private boolean releasing;

  synchronized void addMember(String podKey) {
    members.add(podKey);
  }

  /** The keys of the pods seen to belong to the group. */
  synchronized List<String> memberKeys() {
    return new ArrayList<>(members);
  }

  synchronized int memberCount() {
    return members.size();
  }

  synchronized long queueNanos(long candidate) {
    if (queueNanos == Long.MIN_VALUE) {
      queueNanos = candidate;
    }
    return queueNanos;
  }

  synchronized int reserve(String podKey) {
    members.add(podKey);
    reserved.add(podKey);
    return reserved.size();
  }

  synchronized boolean unreserve(String podKey) {
    return reserved.remove(podKey);
  }

  /** Members found bound on nodes without a reservation of ours, as counted at the start of the last attempt. */
  private int boundElsewhere;

  synchronized void boundElsewhere(int n) {
    boundElsewhere = n;
  }

  synchronized int boundElsewhere() {
    return boundElsewhere;
  }

  synchronized int reservedCount() {
    return reserved.size();
  }

  synchronized List<String> reservedKeys() {
    return new ArrayList<>(reserved);
  }

  /** The reason the group is backing off at {@code nowNanos}, or {@code null}. */
  synchronized @Nullable String backingOff(long nowNanos) {
    return failure != null && nowNanos - backoffUntilNanos < 0 ? failure : null;
  }

  synchronized void fail(String why, long untilNanos) {
    failure = why;
    backoffUntilNanos = untilNanos;
  }

  /** Starts releasing the group; {@code false} if a release is already under way. */
  synchronized boolean startRelease() {
    if (releasing) {
      return false;
    }
    releasing = true;
    return true;
  }

  synchronized void endRelease() {
    releasing = false;
  }
}
