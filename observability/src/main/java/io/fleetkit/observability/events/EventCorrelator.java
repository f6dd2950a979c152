package io.fleetkit.observability.events;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventSeries;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * client-go's {@code EventCorrelator} ({@code kubernetes/client-go tools/record/events_cache.go}) on
 * events.k8s.io/v1 events: core/v1's {@code source.component}/{@code source.host} are
 * {@code reportingController}/{@code reportingInstance}, {@code involvedObject} is {@code regarding}, the
 * {@code message} is the {@code note}, the count lives in {@code series} and {@code firstTimestamp} is
 * {@code eventTime}.
 *
 * <p>{@link #correlate} runs three steps in upstream's order:
 * <ol>
 *   <li><b>aggregate</b>: events that differ only in note (same {@link #aggregateKey}) are tracked by distinct note;
 *       once {@link Builder#maxEvents} distinct notes were seen with no gap above {@link Builder#maxInterval}, the
 *       event is replaced by one named {@code <regarding>.<hex unix nanos>} with the note prefixed by
 *       {@value #COMBINED_PREFIX}, counted under the aggregate key;
 *   <li><b>observe</b>: a known key (the full {@link #eventKey}, or the aggregate key) reuses the stored name,
 *       resourceVersion and first time and counts one more occurrence, which makes the result an update;
 *   <li><b>spam filter</b>: a token bucket per {@link #spamKey} (no reason in it: any reason about one object
 *       shares the bucket), burst {@value #DEFAULT_SPAM_BURST}, refilled at one token per 5 minutes; an event
 *       without a token is skipped (the count was already taken, as upstream).
 * </ol>
 * Each of the three caches keeps the {@value #MAX_LRU_CACHE_ENTRIES} most recently used keys. Thread-safe.
 */
public final class EventCorrelator {
  /** client-go's {@code maxLruCacheEntries}. */
  public static final int MAX_LRU_CACHE_ENTRIES = 4096;
  /** client-go's {@code defaultAggregateMaxEvents}. */
  public static final int DEFAULT_AGGREGATE_MAX_EVENTS = 10;
  /** client-go's {@code defaultAggregateIntervalInSeconds}. */
  public static final Duration DEFAULT_AGGREGATE_INTERVAL = Duration.ofSeconds(600);
  /** client-go's {@code defaultSpamBurst}. */
  public static final int DEFAULT_SPAM_BURST = 25;
  /** client-go's {@code defaultSpamQPS}: one event per 5 minutes. */
  public static final double DEFAULT_SPAM_QPS = 1.0 / 300;
  /** client-go's {@code EventAggregatorByReasonMessageFunc} prefix. */
  public static final String COMBINED_PREFIX = "(combined from similar events): ";

  /**
   * What to do with an event.
   *
   * @param event the event to write ({@code null} when skipped)
   * @param update whether it updates a stored event (its series grew) rather than creating one
   * @param skip whether the spam filter dropped it
   */
  public record Result(@Nullable Event event, boolean update, boolean skip) {}

  private record AggregateRecord(Set<String> localKeys, Instant lastTimestamp) {}

  private record EventLog(int count, Instant firstTimestamp, String name, String resourceVersion) {}

  private static final class TokenBucket {
    private final double qps;
    private final int burst;
    private double tokens;
    private @Nullable Instant last;

    TokenBucket(double qps, int burst) {
      this.qps = qps;
      this.burst = burst;
    }

    boolean tryAccept(Instant now) {
      if (last == null) {
        tokens = burst; // a bucket starts full
      } else if (now.isAfter(last)) {
        tokens = Math.min(burst, tokens + Duration.between(last, now).toNanos() / 1e9 * qps);
      }
      if (last == null || now.isAfter(last)) {
        last = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    }
  }

  private final Clock clock;
  private final int maxEvents;
  private final Duration maxInterval;
  private final int burst;
  private final double qps;
  private final Function<Event, String> spamKeyFunc;
  private final Map<String, TokenBucket> spam;
  private final Map<String, AggregateRecord> aggregates;
  private final Map<String, EventLog> logs;
  /**
   * The event {@link #correlate} returned last and its {@link #eventKey} when known ({@code null} otherwise): a
   * recorder hands that same event to {@link #updateState} once written, whose key then need not be built again.
   */
  private @Nullable Event lastObserved;
  private @Nullable String lastObservedKey;

  private EventCorrelator(Builder b) {
    this.clock = b.clock;
    this.maxEvents = b.maxEvents;
    this.maxInterval = b.maxInterval;
    this.burst = b.burst;
    this.qps = b.qps;
    this.spamKeyFunc = b.spamKeyFunc;
    this.spam = lru(b.lruSize);
    this.aggregates = lru(b.lruSize);
    this.logs = lru(b.lruSize);
  }

  private static <V> Map<String, V> lru(int size) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > size;
      }
    };
  }

  /** A correlator with client-go's defaults on {@code clock}. */
  public static EventCorrelator create(Clock clock) {
    return builder().clock(clock).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * client-go's {@code getEventKey}: reporting controller and instance, the regarded object (kind, namespace,
   * name, field path, uid, API version), type, reason and note, joined without a separator.
   */
  public static String eventKey(Event e) {
    ObjectReference r = e.regarding();
    return e.reportingController() + e.reportingInstance() + r.kind() + r.namespace() + r.name() + r.fieldPath()
        + r.uid() + r.apiVersion() + e.type() + e.reason() + e.note();
  }

  /**
   * client-go's {@code EventAggregatorByReasonFunc} aggregate key: as {@link #eventKey} without field path and
   * note, plus reporting controller and instance.
   */
  public static String aggregateKey(Event e) {
    ObjectReference r = e.regarding();
    return e.reportingController() + e.reportingInstance() + r.kind() + r.namespace() + r.name() + r.uid()
        + r.apiVersion() + e.type() + e.reason() + e.reportingController() + e.reportingInstance();
  }

  /** client-go's {@code getSpamKey}: the source and the regarded object and the type, no reason. */
  public static String spamKey(Event e) {
    ObjectReference r = e.regarding();
    return e.reportingController() + e.reportingInstance() + r.kind() + r.namespace() + r.name() + r.uid()
        + r.apiVersion() + e.type();
  }

  /** Filters, aggregates and counts {@code event} (client-go's {@code EventCorrelate}). */
  public synchronized Result correlate(Event event) {
    Objects.requireNonNull(event, "event");
    // 1. aggregate
    Instant now = clock.instant();
    String key = eventKey(event);
    String aggregateKey = aggregateKey(event);
    AggregateRecord record = aggregates.get(aggregateKey);
    if (record == null || Duration.between(record.lastTimestamp(), now).compareTo(maxInterval) > 0) {
      record = new AggregateRecord(new HashSet<>(), now);
    }
    record.localKeys().add(event.note());
    record = new AggregateRecord(record.localKeys(), now);
    aggregates.put(aggregateKey, record);
    Event candidate = event;
    String cacheKey = key;
    if (record.localKeys().size() >= maxEvents) {
      Iterator<String> it = record.localKeys().iterator();
      it.next();
      it.remove(); // keep the set at the maximum
      long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
      candidate = new Event(ObjectMeta.of(event.metadata().namespace(),
          event.regarding().name() + "." + Long.toHexString(nanos)), now, null, event.reportingController(),
          event.reportingInstance(), event.action(), event.reason(), event.regarding(), event.related(),
          truncate(COMBINED_PREFIX + event.note()), event.type(), 0, null, null);
      cacheKey = aggregateKey;
    }
    // 2. observe
    EventLog last = logs.get(cacheKey);
    Event observed = candidate;
    boolean update = false;
    if (last != null && last.count() > 0) {
      int count = last.count() + 1;
      observed = new Event(candidate.metadata().toBuilder().name(last.name()).resourceVersion(last.resourceVersion())
          .build(), last.firstTimestamp(), new EventSeries(count, candidate.eventTime()),
          candidate.reportingController(), candidate.reportingInstance(), candidate.action(), candidate.reason(),
          candidate.regarding(), candidate.related(), candidate.note(), candidate.type(), 0, null, null);
      update = true;
    }
    logs.put(cacheKey, new EventLog(observed.count(), observed.eventTime(), observed.metadata().name(),
        observed.metadata().resourceVersion()));
    lastObserved = observed;
    // observed differs from event only in metadata, time and series unless it was aggregated (another note)
    lastObservedKey = candidate == event ? key : null;
    // 3. spam filter
    TokenBucket bucket = spam.computeIfAbsent(spamKeyFunc.apply(observed), k -> new TokenBucket(qps, burst));
    if (!bucket.tryAccept(clock.instant())) {
      return new Result(null, false, true);
    }
    return new Result(observed, update, false);
  }

  /** Records the server's copy of a written event (client-go's {@code UpdateState}). */
  public synchronized void updateState(Event stored) {
    String key = stored == lastObserved && lastObservedKey != null ? lastObservedKey : eventKey(stored);
    logs.put(key, new EventLog(stored.count(), stored.eventTime(), stored.metadata().name(),
        stored.metadata().resourceVersion()));
  }

  static String truncate(String note) {
    return note.length() <= Event.NOTE_LENGTH_LIMIT ? note : note.substring(0, Event.NOTE_LENGTH_LIMIT - 3) + "...";
  }

  /** Options; client-go's {@code CorrelatorOptions} with its defaults. Not thread-safe. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private int lruSize = MAX_LRU_CACHE_ENTRIES;
    private int maxEvents = DEFAULT_AGGREGATE_MAX_EVENTS;
    private Duration maxInterval = DEFAULT_AGGREGATE_INTERVAL;
    private int burst = DEFAULT_SPAM_BURST;
    private double qps = DEFAULT_SPAM_QPS;
    private Function<Event, String> spamKeyFunc = EventCorrelator::spamKey;

    private Builder() {}

    public Builder clock(Clock c) {
      clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    public Builder lruCacheSize(int n) {
      lruSize = positive("lruCacheSize", n);
      return this;
    }

    /** Distinct notes that make similar events aggregate. */
    public Builder maxEvents(int n) {
      maxEvents = positive("maxEvents", n);
      return this;
    }

    /** The gap after which similar events start a fresh aggregation. */
    public Builder maxInterval(Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("event correlator: maxInterval " + d + " must not be negative");
      }
      maxInterval = d;
      return this;
    }

    /** The spam filter's burst per spam key. */
    public Builder burst(int n) {
      burst = positive("burst", n);
      return this;
    }

    /** The spam filter's refill rate in events per second. */
    public Builder qps(double q) {
      if (!(q > 0)) {
        throw new IllegalArgumentException("event correlator: qps " + q + " must be positive");
      }
      qps = q;
      return this;
    }

    /** The spam filter's key (client-go's {@code SpamKeyFunc}); default {@link EventCorrelator#spamKey}. */
    public Builder spamKey(Function<Event, String> f) {
      spamKeyFunc = Objects.requireNonNull(f, "spamKey");
      return this;
    }

    public EventCorrelator build() {
      return new EventCorrelator(this);
    }

    private static int positive(String field, int n) {
      if (n < 1) {
        throw new IllegalArgumentException("event correlator: " + field + " " + n + " must be at least 1");
      }
      return n;
    }
  }
}
