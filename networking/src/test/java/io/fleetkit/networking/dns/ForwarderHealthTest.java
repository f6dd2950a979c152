package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * {@link Forwarder}'s health checks and {@code max_fails} against {@link ScriptedUpstream}s on 127.0.0.1 (UDP, and
 * TCP for {@code force_tcp}). Ported from coredns/coredns {@code plugin/forward/health_test.go} (commit
 * 4b26cced32717eac6dd725e308d7415c8b9db147): TestHealth, TestHealthTCP, TestHealthNoRecursion, TestHealthTimeout,
 * TestHealthMaxFails, TestHealthNoMaxFails, TestHealthDomain, TestAllUpstreamsDown. As there, the query's deadline
 * (10 ms) allows one attempt and checks wait 10-50 ms; conditions are awaited, never slept for.
 */
final class ForwarderHealthTest {
  private static final Duration SHORT = Duration.ofMillis(10);
  /** The health-check deadline of the tests whose upstream answers every check. */
  private static final Duration ANSWERED_CHECK_TIMEOUT = Duration.ofSeconds(2);

  /** Waits up to 5 s for {@code condition}, failing the test when it does not come. */
  static void await(BooleanSupplier condition) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - until).as("condition not met within 5 s").isNegative();
      Thread.sleep(2);
    }
  }

  /** An empty answer to {@code q}: its id and question, QR set, RD copied (miekg's {@code SetReply}). */
  static byte[] reply(byte[] q) {
    try {
      Message query = new Message(q);
      Message m = new Message(query.getHeader().getID());
      m.getHeader().setFlag(Flags.QR);
      if (query.getHeader().getFlag(Flags.RD)) {
        m.getHeader().setFlag(Flags.RD);
      }
      m.addRecord(query.getQuestion(), Section.QUESTION);
      return m.toWire();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Message query(String name, int type) throws Exception {
    return Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
  }

  /**
   * A forwarder as upstream's tests make it: 10 ms deadline, 10 ms checks, 50 ms reads. Where a test counts the checks
   * an upstream answers, it gives the checks {@link #ANSWERED_CHECK_TIMEOUT} instead: on a loaded machine an answer
   * can take longer than 50 ms, which would fail the check and start another.
   */
  private static Forwarder.Builder quick(ScriptedUpstream... ups) {
    return Forwarder.builder(java.util.Arrays.stream(ups).map(ScriptedUpstream::upstream).toList())
        .timeout(SHORT).readTimeout(Duration.ofMillis(50)).healthCheckTimeout(Duration.ofMillis(50))
        .healthCheck(ForwardHealthCheck.DEFAULT.withInterval(SHORT));
  }

  /** Drops the first query it receives (the client's), answers everything after it (checks included). */
  private static ScriptedUpstream dropFirstQuery() throws Exception {
    AtomicInteger received = new AtomicInteger();
    return ScriptedUpstream.withTcp(q -> received.getAndIncrement() == 0 ? List.of() : List.of(reply(q)));
  }

  // plugin/pkg/proxy/health_test.go (same commit) TestHealth, TestHealthTCP, TestHealthNoRecursion,
  // TestHealthTimeout, TestHealthDomain: one check, by itself, against an upstream that answers (or not)
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
      "TestHealth,            false, true,  .,            true",
      "TestHealthTCP,         true,  true,  .,            true",
      "TestHealthNoRecursion, false, false, .,            true",
      "TestHealthTimeout,     false, false, .,            false",
      "TestHealthDomain,      false, true,  example.org., true",
  })
  void check_asksTheDomainWithTheFlagOverTheTransport(String name, boolean tcp, boolean recursionDesired,
      String domain, boolean answers) throws Exception {
    try (ScriptedUpstream up = ScriptedUpstream.withTcp(q -> answers ? List.of(reply(q)) : List.of());
        Forwarder f = quick(up).forceTcp(tcp).healthCheck(ForwardHealthCheck.DEFAULT.withInterval(SHORT)
            .withRecursionDesired(recursionDesired).withDomain(domain))
            // a check that should pass gets time to (a 10 ms TCP exchange misses it on a loaded machine); the one
            // that should time out keeps upstream's short deadline
            .healthCheckTimeout(answers ? Duration.ofSeconds(2) : SHORT).build()) {
      assertThat(f.healthOf(up.upstream()).check()).as("check passed").isEqualTo(answers);
      assertThat(f.fails(up.upstream())).isEqualTo(answers ? 0 : 1);
      if (answers) {
        assertThat(up.queries(q -> q.name().equals(domain) && q.recursionDesired() == recursionDesired))
            .singleElement().satisfies(q -> assertThat(q.tcp()).isEqualTo(tcp));
      }
    }
  }

  // TestHealth (UDP) and TestHealthTCP (force_tcp: the query and the checks over TCP): the first query is dropped,
  // one check with recursion desired follows and, answered, is the only one
  @ParameterizedTest(name = "force_tcp {0}")
  @ValueSource(booleans = {false, true})
  void droppedQuery_oneHealthCheckWithRecursionDesired(boolean tcp) throws Exception {
    try (ScriptedUpstream up = dropFirstQuery();
        Forwarder f = quick(up).forceTcp(tcp).healthCheckTimeout(ANSWERED_CHECK_TIMEOUT).build()) {
      assertThat(f.exchange(query("example.org.", Type.A), tcp).rcode()).isEqualTo(Rcode.SERVFAIL);
      await(() -> up.queries(q -> q.name().equals(".") && q.recursionDesired()).size() == 1);
      Thread.sleep(60); // six check intervals: an answered check ends the loop
      List<ScriptedUpstream.Received> checks = up.queries(ScriptedUpstream.Received::isRootProbe);
      assertThat(checks).hasSize(1).allSatisfy(c -> assertThat(c.tcp()).as("over TCP").isEqualTo(tcp));
      assertThat(f.fails(up.upstream())).isZero();
      assertThat(f.isDown(up.upstream())).isFalse();
    }
  }

  // TestHealthNoRecursion: health_check no_rec
  @Test
  void noRec_healthCheckWithoutRecursionDesired() throws Exception {
    try (ScriptedUpstream up = dropFirstQuery();
        Forwarder f = quick(up).healthCheck(ForwardHealthCheck.DEFAULT.withInterval(SHORT)
            .withRecursionDesired(false)).build()) {
      f.exchange(query("example.org.", Type.A));
      await(() -> up.queries(q -> q.name().equals(".") && !q.recursionDesired()).size() == 1);
      assertThat(up.queries(q -> q.name().equals(".") && q.recursionDesired())).isEmpty();
    }
  }

  // TestHealthTimeout: checks are always answered, the first query is not: exactly one check
  @Test
  void timedOutQuery_oneAnsweredHealthCheck() throws Exception {
    AtomicInteger dropped = new AtomicInteger();
    try (ScriptedUpstream up = new ScriptedUpstream(q -> {
      ScriptedUpstream.Received r = new ScriptedUpstream.Received(q, false);
      return r.isRootProbe() || dropped.getAndIncrement() > 0 ? List.of(reply(q)) : List.of();
    }); Forwarder f = quick(up).healthCheckTimeout(ANSWERED_CHECK_TIMEOUT).build()) {
      assertThat(f.exchange(query("example.org.", Type.A)).rcode()).isEqualTo(Rcode.SERVFAIL);
      await(() -> up.queries(ScriptedUpstream.Received::isRootProbe).size() == 1);
      Thread.sleep(40);
      assertThat(up.queries(ScriptedUpstream.Received::isRootProbe)).hasSize(1);
      // the upstream answers again: the next query gets its answer
      assertThat(f.exchange(query("example.org.", Type.A)).rcode()).isEqualTo(Rcode.NOERROR);
    }
  }

  // TestHealthMaxFails: a silent upstream, max_fails 2: checked every 10 ms until more than 2 checks failed: down
  @Test
  void silentUpstream_downAfterMoreThanMaxFailsChecks() throws Exception {
    try (ScriptedUpstream up = ScriptedUpstream.silent();
        Forwarder f = quick(up).maxFails(2).healthCheckTimeout(SHORT).build()) {
      assertThat(f.isDown(up.upstream())).isFalse();
      f.exchange(query("example.org.", Type.A));
      await(() -> f.isDown(up.upstream()));
      assertThat(f.fails(up.upstream())).isGreaterThan(2);
      assertThat(up.queries(ScriptedUpstream.Received::isRootProbe)).hasSizeGreaterThanOrEqualTo(3);
    }
  }

  // TestHealthNoMaxFails: max_fails 0: no health checks at all
  @Test
  void maxFailsZero_noHealthChecks() throws Exception {
    try (ScriptedUpstream up = new ScriptedUpstream(q -> new ScriptedUpstream.Received(q, false).isRootProbe()
        ? List.of(reply(q)) : List.of());
        Forwarder f = quick(up).maxFails(0).build()) {
      assertThat(f.exchange(query("example.org.", Type.A)).rcode()).isEqualTo(Rcode.SERVFAIL);
      Thread.sleep(40);
      assertThat(up.queries(ScriptedUpstream.Received::isRootProbe)).isEmpty();
      assertThat(up.queries()).hasSize(1);
      assertThat(f.isDown(up.upstream())).isFalse();
    }
  }

  // TestHealthDomain: health_check domain example.org: the check asks example.org. NS (recursion desired)
  @Test
  void healthCheckDomain_asked() throws Exception {
    try (ScriptedUpstream up = dropFirstQuery();
        Forwarder f = quick(up).healthCheck(ForwardHealthCheck.DEFAULT.withInterval(SHORT)
            .withDomain("example.org")).healthCheckTimeout(ANSWERED_CHECK_TIMEOUT).build()) {
      f.exchange(query(".", Type.NS));
      await(() -> up.queries(q -> q.name().equals("example.org.") && q.recursionDesired()).size() == 1);
      Thread.sleep(40);
      assertThat(up.queries(q -> q.name().equals("example.org."))).hasSize(1);
      assertThat(up.queries(q -> q.name().equals("."))).as("the client's question only").hasSize(1);
    }
  }

  // TestAllUpstreamsDown: both down (max_fails 1, two failed checks each); failfast_all_unhealthy_upstreams:
  // SERVFAIL without a query; without it one query to a random upstream
  @Test
  void allUpstreamsDown_failfastAsksNone_otherwiseOneRandomUpstreamOnce() throws Exception {
    try (ScriptedUpstream a = ScriptedUpstream.silent(); ScriptedUpstream b = ScriptedUpstream.silent();
        Forwarder failfast = quick(a, b).maxFails(1).failfastAllUnhealthyUpstreams(true).build();
        Forwarder spray = quick(a, b).maxFails(1).build()) {
      for (Forwarder f : List.of(failfast, spray)) {
        for (int i = 0; i < 2; i++) {
          assertThat(f.isDown(a.upstream())).as("down only with more failed checks than max_fails").isFalse();
          assertThat(f.healthOf(a.upstream()).check()).isFalse();
          f.healthOf(b.upstream()).check();
        }
        assertThat(f.isDown(a.upstream()) && f.isDown(b.upstream())).as("all proxies down").isTrue();
      }
      assertThat(failfast.exchange(query("example.org.", Type.A)).rcode()).isEqualTo(Rcode.SERVFAIL);
      assertThat(queriesTo(a, b)).isZero();
      assertThat(spray.exchange(query("example.org.", Type.A)).rcode()).isEqualTo(Rcode.SERVFAIL);
      assertThat(queriesTo(a, b)).isEqualTo(1);
    }
  }

  private static int queriesTo(ScriptedUpstream... ups) {
    return java.util.Arrays.stream(ups).mapToInt(u -> u.queries(q -> !q.isRootProbe()).size()).sum();
  }

  // beyond upstream's tests: when every upstream is down but answers, each query goes to a random one
  @Test
  void allUpstreamsDown_eachQueryToARandomOne_answered() throws Exception {
    AtomicBoolean answering = new AtomicBoolean();
    java.util.function.Function<byte[], List<byte[]>> script = q -> answering.get() ? List.of(reply(q)) : List.of();
    try (ScriptedUpstream a = new ScriptedUpstream(script); ScriptedUpstream b = new ScriptedUpstream(script);
        Forwarder f = quick(a, b).maxFails(1).policy(ForwardPolicy.SEQUENTIAL).random(new Random(7)).build()) {
      for (int i = 0; i < 2; i++) {
        f.healthOf(a.upstream()).check();
        f.healthOf(b.upstream()).check();
      }
      answering.set(true);
      Set<Upstream> answered = new HashSet<>();
      for (int i = 0; i < 30; i++) {
        Forwarder.Reply r = f.exchange(query("example.org.", Type.A));
        assertThat(r.rcode()).isEqualTo(Rcode.NOERROR);
        answered.add(r.upstream());
      }
      assertThat(answered).as("random, not the sequential order").containsExactlyInAnyOrder(a.upstream(),
          b.upstream());
      assertThat(queriesTo(a, b)).isEqualTo(30);
    }
  }

  // a down upstream is skipped by the policy, and used again once a health check is answered
  @Test
  void downUpstream_skippedUntilAHealthCheckIsAnswered() throws Exception {
    AtomicBoolean firstAnswers = new AtomicBoolean();
    try (ScriptedUpstream first = new ScriptedUpstream(q -> firstAnswers.get() ? List.of(reply(q)) : List.of());
        ScriptedUpstream second = new ScriptedUpstream(q -> List.of(reply(q)));
        Forwarder f = quick(first, second).timeout(Duration.ofSeconds(5)).maxFails(2)
            .policy(ForwardPolicy.SEQUENTIAL).build()) {
      Forwarder.Reply r = f.exchange(query("example.org.", Type.A));
      assertThat(r.upstream()).as("the first timed out, the second answered").isEqualTo(second.upstream());
      await(() -> f.isDown(first.upstream()));
      int asked = first.queries(q -> !q.isRootProbe()).size();
      assertThat(f.exchange(query("example.org.", Type.A)).upstream()).isEqualTo(second.upstream());
      assertThat(first.queries(q -> !q.isRootProbe())).as("down: skipped").hasSize(asked);
      firstAnswers.set(true);
      await(() -> !f.isDown(first.upstream()));
      assertThat(f.fails(first.upstream())).isZero();
      assertThat(f.exchange(query("example.org.", Type.A)).upstream()).isEqualTo(first.upstream());
    }
  }

  // close() ends the probe loops
  @Test
  void closedForwarder_noMoreHealthChecks() throws Exception {
    try (ScriptedUpstream up = ScriptedUpstream.silent()) {
      Forwarder f = quick(up).build();
      f.exchange(query("example.org.", Type.A));
      await(() -> !up.queries(ScriptedUpstream.Received::isRootProbe).isEmpty());
      f.close();
      Thread.sleep(30);
      int checks = up.queries(ScriptedUpstream.Received::isRootProbe).size();
      Thread.sleep(60);
      assertThat(up.queries(ScriptedUpstream.Received::isRootProbe)).hasSize(checks);
    }
  }
}
