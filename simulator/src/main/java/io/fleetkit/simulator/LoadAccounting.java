package io.fleetkit.simulator;

import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Counts each load's requests and those beyond its workload's capacity as the simulation runs. After every simulated
 * instant ({@link #advance}) the time since the last one is integrated at the capacity the workload had then
 * ({@link io.fleetkit.api.simulation.LoadPattern#requestsBeyond}), and the capacity is read anew: between two
 * instants nothing in the cluster changes, so the counts are exact, where the sampled {@code unserved requests/s}
 * series only shows the rate at each sample. The requests beyond capacity are also summed per clock minute, for the
 * worst minute. An instant that changed no serving pod ({@link LoadMetrics#servingEpoch}) within the same minute
 * counts nothing yet: its time is counted with the next one that does, in one piece. Not thread-safe, as the
 * simulation.
 */
final class LoadAccounting {
  private static final long MINUTE = 60;

  private final LoadMetrics metrics;
  private final List<Account> accounts = new ArrayList<>();
  /** {@link LoadMetrics#servingEpoch} and the clock minute at the last count. */
  private long countedEpoch = -1;
  private long countedMinute = -1;

  private static final class Account {
    final WorkloadLoad load;
    Duration last = Duration.ZERO;
    double capacity;
    double requests;
    double unserved;
    long minute;
    double inMinute;
    long worstMinute = -1;
    double worst;

    Account(WorkloadLoad load) {
      this.load = load;
    }
  }

  LoadAccounting(LoadMetrics metrics, List<WorkloadLoad> loads) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    for (WorkloadLoad l : loads) {
      accounts.add(new Account(l));
    }
  }

  /** Starts counting at {@code now}, with the capacities the workloads have at that instant. */
  void start(Duration now) {
    countedEpoch = metrics.servingEpoch();
    countedMinute = now.getSeconds() / MINUTE;
    for (Account a : accounts) {
      a.last = now;
      a.minute = now.getSeconds() / MINUTE;
      a.capacity = metrics.capacity(a.load);
    }
  }

  /**
   * The simulation settled the instant {@code now}: counts the time since the last instant at the capacities that
   * held during it, then reads each workload's capacity as the instant left it.
   */
  void advance(Duration now) {
    long minute = now.getSeconds() / MINUTE;
    long epoch = metrics.servingEpoch();
    if (accounts.isEmpty() || epoch == countedEpoch && minute == countedMinute) {
      return; // no capacity changed and the minute is the same: the time is counted in one piece later
    }
    countedEpoch = epoch;
    countedMinute = minute;
    for (Account a : accounts) {
      if (now.compareTo(a.last) > 0) {
        count(a, now);
      }
      a.capacity = metrics.capacity(a.load);
    }
  }

  private void count(Account a, Duration now) {
    a.requests += a.load.pattern().requests(a.last, now);
    Duration from = a.last;
    while (from.compareTo(now) < 0) {
      // up to the end of from's clock minute, so that the requests beyond capacity are summed per minute
      long m = from.getSeconds() / MINUTE;
      Duration minuteEnd = Duration.ofSeconds((m + 1) * MINUTE);
      Duration to = minuteEnd.compareTo(now) < 0 ? minuteEnd : now;
      if (m != a.minute) {
        closeMinute(a);
        a.minute = m;
      }
      double beyond = a.load.pattern().requestsBeyond(a.capacity, from, to);
      a.unserved += beyond;
      a.inMinute += beyond;
      if (a.capacity == Double.POSITIVE_INFINITY) { // nothing is beyond: on to the end in one piece
        from = now;
        long last = now.getSeconds() / MINUTE;
        if (last != a.minute) {
          closeMinute(a);
          a.minute = last;
        }
      } else {
        from = to;
      }
    }
    a.last = now;
  }

  private static void closeMinute(Account a) {
    if (a.inMinute > a.worst) {
      a.worst = a.inMinute;
      a.worstMinute = a.minute;
    }
    a.inMinute = 0;
  }

  /**
   * What each load asked and what was beyond capacity up to {@code end} (the last instant the simulation settled, or
   * later: the capacities hold until the next instant), in the order the loads were given.
   */
  List<LoadOutcome> outcomes(Duration end) {
    List<LoadOutcome> out = new ArrayList<>(accounts.size());
    for (Account a : accounts) {
      if (end.compareTo(a.last) > 0) {
        count(a, end);
      }
      double worst = a.worst;
      long worstMinute = a.worstMinute;
      if (a.inMinute > worst) { // the minute still open
        worst = a.inMinute;
        worstMinute = a.minute;
      }
      out.add(new LoadOutcome(a.load.target(), a.requests, a.unserved,
          worstMinute < 0 ? null : Duration.ofSeconds(worstMinute * MINUTE), worst));
    }
    return out;
  }
}
