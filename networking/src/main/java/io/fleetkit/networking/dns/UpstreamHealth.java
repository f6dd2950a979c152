package io.fleetkit.networking.dns;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * One upstream of a {@link Forwarder} with its health, as CoreDNS's {@code proxy.Proxy} with its {@code up.Probe}:
 * a count of failed health checks, and at most one probe loop at a time. {@link #healthcheck()} (called after a
 * failed query) starts the loop unless one runs: it checks at once and, while checks fail, again every interval,
 * each failure adding one to the count; the first answer sets the count to 0 and ends the loop. The upstream is down
 * while the count is <em>more</em> than {@code max_fails} (CoreDNS's {@code Down}); a failed query itself counts
 * nothing. Thread-safe.
 */
final class UpstreamHealth {
  private static final Logger LOG = LoggerFactory.getLogger(UpstreamHealth.class);
  private static final SecureRandom IDS = new SecureRandom();

  private final Upstream upstream;
  private final ForwardHealthCheck check;
  private final boolean tcp;
  private final Duration timeout;
  private final Executor probes;
  private final AtomicInteger fails = new AtomicInteger();
  private final AtomicBoolean probing = new AtomicBoolean();
  private volatile boolean stopped;

  /**
   * @param tcp check over TCP (CoreDNS's {@code force_tcp}), else UDP
   * @param timeout how long one check waits for its answer (CoreDNS's health checker: 1 s)
   * @param probes where probe loops run; each loop holds a thread while it sleeps between checks
   */
  UpstreamHealth(Upstream upstream, ForwardHealthCheck check, boolean tcp, Duration timeout, Executor probes) {
    this.upstream = upstream;
    this.check = check;
    this.tcp = tcp;
    this.timeout = timeout;
    this.probes = probes;
  }

  Upstream upstream() {
    return upstream;
  }

  /** Failed health checks since the last answer. */
  int fails() {
    return fails.get();
  }

  /** Whether this upstream is skipped: {@code maxFails} is not 0 and more checks than it have failed. */
  boolean down(int maxFails) {
    return maxFails != 0 && fails.get() > maxFails;
  }

  /** Starts a probe loop unless one runs or probing has stopped. */
  void healthcheck() {
    if (stopped || !probing.compareAndSet(false, true)) {
      return;
    }
    try {
      probes.execute(this::probe);
    } catch (RejectedExecutionException e) { // the forwarder is closing
      probing.set(false);
    }
  }

  /** Ends probing for good (a running loop stops after its current check). */
  void stop() {
    stopped = true;
  }

  private void probe() {
    try {
      while (!check() && !stopped) {
        Thread.sleep(check.interval().toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      probing.set(false);
    }
  }

  /** One health check: whether the upstream answered; counts a failure when it did not. */
  boolean check() {
    try {
      Message ping = Message.newQuery(Record.newRecord(Name.fromConstantString(check.domain()), Type.NS,
          DClass.IN));
      if (!check.recursionDesired()) {
        ping.getHeader().unsetFlag(Flags.RD);
      }
      ping.getHeader().setID(IDS.nextInt(0x10000));
      UpstreamSocket.exchange(upstream, ping.toWire(), tcp, timeout);
      fails.set(0);
      return true;
    } catch (IOException e) {
      LOG.debug("health check of {} failed: {}", upstream, e.toString());
    }
    fails.getAndUpdate(n -> n == Integer.MAX_VALUE ? n : n + 1); // CoreDNS's incrementFails stops at the maximum
    return false;
  }
}
