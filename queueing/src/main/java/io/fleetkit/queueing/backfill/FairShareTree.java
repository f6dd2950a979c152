package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Slurm's classic fair-share ({@code PriorityFlags=NO_FAIR_TREE}, {@code doc/html/classic_fair_share.shtml}) over an
 * account tree whose leaves are (user, account) associations.
 *
 * <pre>
 * S   = Π over the path from the root: shares / shares of all siblings           (normalized shares)
 * U   = usage / total usage R_H                                                   (normalized usage)
 * U_E = U_child + (U_E,parent − U_child) × S_child / S_all_siblings              (effective usage; U_E = U below root)
 * F   = 2^(−U_E / S / d)                                                          (d: FairShareDampeningFactor)
 * </pre>
 *
 * An association's usage counts for all its ancestors. Usage is whatever the caller accumulates (CPU-seconds by
 * default in Slurm), already decayed; {@link #decay} applies {@code PriorityDecayHalfLife}.
 */
public final class FairShareTree {
  private static final String ROOT = "root";

  private static final class Node {
    final String name;
    final @Nullable Node parent;
    final double shares;
    final List<Node> children = new ArrayList<>();
    double usage;
    double normalizedShares;
    double effectiveUsage;

    Node(String name, @Nullable Node parent, double shares) {
      this.name = name;
      this.parent = parent;
      this.shares = shares;
    }
  }

  private final Map<String, Node> accounts;
  private final Map<String, Node> users;
  private final double dampening;

  private FairShareTree(Map<String, Node> accounts, Map<String, Node> users, double dampening) {
    this.accounts = accounts;
    this.users = users;
    this.dampening = dampening;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code usage × 2^(−elapsed / halfLife)}: Slurm's half-life decay of historical usage. */
  public static double decay(double usage, Duration elapsed, Duration halfLife) {
    if (halfLife.isZero()) {
      return usage;
    }
    return usage * Math.pow(2, -(double) elapsed.toMillis() / halfLife.toMillis());
  }

  private Node association(String user, String account) {
    Node n = users.get(user + "@" + account);
    if (n == null) {
      throw new IllegalArgumentException("fair share: no association for user " + user + " in account " + account);
    }
    return n;
  }

  /** The normalized shares of {@code user} in {@code account}, in [0, 1]. */
  public double normalizedShares(String user, String account) {
    return association(user, account).normalizedShares;
  }

  /** The effective usage of {@code user} in {@code account}. */
  public double effectiveUsage(String user, String account) {
    return association(user, account).effectiveUsage;
  }

  /** The effective usage of {@code account}. */
  public double accountEffectiveUsage(String account) {
    Node n = accounts.get(account);
    if (n == null) {
      throw new IllegalArgumentException("fair share: unknown account " + account);
    }
    return n.effectiveUsage;
  }

  /** The fair-share factor {@code 2^(−U_E / S / d)} of {@code user} in {@code account}; 0 without shares. */
  public double factor(String user, String account) {
    Node n = association(user, account);
    if (n.normalizedShares == 0) {
      return 0;
    }
    return Math.pow(2, -n.effectiveUsage / n.normalizedShares / dampening);
  }

  /** Mutable builder; not thread-safe. Accounts must be added before their children. */
  public static final class Builder {
    private final Map<String, Node> accounts = new LinkedHashMap<>();
    private final Map<String, Node> users = new LinkedHashMap<>();
    private final Map<String, Double> usage = new HashMap<>();
    private double dampening = 1;
    private double totalUsage = -1;
    private boolean built;

    private Builder() {
      accounts.put(ROOT, new Node(ROOT, null, 1));
    }

    /** Adds an account under {@code parent} ({@code root} for the top tier) with {@code shares}. */
    public Builder account(String name, String parent, double shares) {
      Objects.requireNonNull(name, "name");
      Node p = accounts.get(parent);
      if (p == null) {
        throw new IllegalArgumentException("fair share: account " + name + " names unknown parent " + parent);
      }
      if (shares < 0 || accounts.containsKey(name)) {
        throw new IllegalArgumentException("fair share: account " + name + " (shares " + shares
            + ") must be new and have non-negative shares");
      }
      Node n = new Node(name, p, shares);
      p.children.add(n);
      accounts.put(name, n);
      return this;
    }

    /** Adds the association of {@code user} in {@code account} with {@code shares} and its (decayed) usage. */
    public Builder user(String user, String account, double shares, double usage) {
      Node p = accounts.get(account);
      if (p == null) {
        throw new IllegalArgumentException("fair share: user " + user + " names unknown account " + account);
      }
      String key = user + "@" + account;
      if (shares < 0 || usage < 0 || users.containsKey(key)) {
        throw new IllegalArgumentException("fair share: association " + key + " (shares " + shares + ", usage "
            + usage + ") must be new with non-negative shares and usage");
      }
      Node n = new Node(key, p, shares);
      p.children.add(n);
      users.put(key, n);
      this.usage.put(key, usage);
      return this;
    }

    /**
     * The cluster's total (decayed) usage {@code R_H} that normalizes every association's usage; by default the sum of
     * the associations' usage. Pass 1 when usages are already normalized.
     */
    public Builder totalUsage(double total) {
      if (!(total > 0)) {
        throw new IllegalArgumentException("fair share: total usage " + total + " must be positive");
      }
      this.totalUsage = total;
      return this;
    }

    /** {@code FairShareDampeningFactor} (default 1). */
    public Builder dampeningFactor(double d) {
      if (!(d >= 1)) {
        throw new IllegalArgumentException("fair share: FairShareDampeningFactor " + d + " must be at least 1");
      }
      this.dampening = d;
      return this;
    }

    /**
     * @throws IllegalStateException if called twice
     */
    public FairShareTree build() {
      if (built) {
        throw new IllegalStateException("fair share: build() already called on this builder");
      }
      built = true;
      Node root = accounts.get(ROOT);
      double total = 0;
      for (Map.Entry<String, Double> e : usage.entrySet()) {
        total += e.getValue();
      }
      if (totalUsage > 0) {
        total = totalUsage;
      }
      for (Map.Entry<String, Double> e : usage.entrySet()) {
        double u = total == 0 ? 0 : e.getValue() / total;
        for (Node n = users.get(e.getKey()); n != null; n = n.parent) {
          n.usage += u;
        }
      }
      root.normalizedShares = 1;
      root.effectiveUsage = root.usage;
      compute(root);
      return new FairShareTree(accounts, users, dampening);
    }

    private static void compute(Node parent) {
      double siblings = 0;
      for (Node c : parent.children) {
        siblings += c.shares;
      }
      for (Node c : parent.children) {
        double share = siblings == 0 ? 0 : c.shares / siblings;
        c.normalizedShares = parent.normalizedShares * share;
        c.effectiveUsage = parent.parent == null
            ? c.usage
            : c.usage + (parent.effectiveUsage - c.usage) * share;
        compute(c);
      }
    }
  }
}
