package io.fleetkit.api.batch;

import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.api.time.GoDurations;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed CronJob schedule with the semantics of robfig/cron v3's {@code ParseStandard}, the parser Kubernetes'
 * CronJob controller and validation use: five fields (minute, hour, day of month, month, day of week) with {@code *},
 * {@code ?}, lists ({@code 1,15}), ranges ({@code 1-5}), steps ({@code *}{@code /15}, {@code 5/15} meaning
 * {@code 5-59/15}, {@code 8-18/2}), month names {@code jan..dec} and day names {@code sun..sat} (case-insensitive);
 * the descriptors {@code @yearly @annually @monthly @weekly @daily @midnight @hourly} and {@code @every <duration>}
 * (Go duration syntax, rounded down to whole seconds, at least one second); an optional {@code TZ=<zone>} or
 * {@code CRON_TZ=<zone>} prefix. When day of month and day of week are both restricted (neither starts with
 * {@code *} or {@code ?}), a day matching either one matches, as in cron.
 *
 * <p>Times are computed in the schedule's zone; without a zone, {@link #next(Instant)} uses UTC and
 * {@link #next(ZonedDateTime)} the zone of its argument (robfig's {@code time.Local} case). Immutable and
 * thread-safe.
 */
public final class CronSchedule {
  /** Set in a field's bits when it was written {@code *} or {@code ?} (robfig's {@code starBit}). */
  static final long STAR = 1L << 63;
  private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
      Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
      Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));
  private static final Map<String, Integer> DAYS = Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4,
      "fri", 5, "sat", 6);
  static final Bounds MINUTES = new Bounds("minute", 0, 59, null);
  static final Bounds HOURS = new Bounds("hour", 0, 23, null);
  static final Bounds DOM = new Bounds("day of month", 1, 31, null);
  static final Bounds MONTH = new Bounds("month", 1, 12, MONTHS);
  static final Bounds DOW = new Bounds("day of week", 0, 6, DAYS);
  /** How far robfig's {@code Next} looks before giving up on an unsatisfiable schedule ({@code 31 2 *}). */
  private static final int YEARS_AHEAD = 5;

  /** A field's range and its names (months, days), as robfig's {@code bounds}. */
  record Bounds(String name, int min, int max, @Nullable Map<String, Integer> names) {}

  private final String spec;
  private final @Nullable ZoneId zone;
  private final long minute;
  private final long hour;
  private final long dom;
  private final long month;
  private final long dow;
  /** {@code @every}: the constant delay, else {@code null}. */
  private final @Nullable Duration every;

  private CronSchedule(String spec, @Nullable ZoneId zone, long minute, long hour, long dom, long month, long dow,
      @Nullable Duration every) {
    this.spec = spec;
    this.zone = zone;
    this.minute = minute;
    this.hour = hour;
    this.dom = dom;
    this.month = month;
    this.dow = dow;
    this.every = every;
  }

  /**
   * Parses {@code spec} as robfig/cron's {@code ParseStandard}.
   *
   * @throws IllegalArgumentException with robfig's wording ({@code expected exactly 5 fields, found 4: * * * *},
   *     {@code end of range (60) above maximum (59): 60}, {@code unrecognized descriptor: @often}, ...)
   */
  public static CronSchedule parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    if (spec.isEmpty()) {
      throw new IllegalArgumentException("empty spec string");
    }
    String rest = spec;
    ZoneId zone = null;
    if (rest.startsWith("TZ=") || rest.startsWith("CRON_TZ=")) {
      int space = rest.indexOf(' ');
      int eq = rest.indexOf('=');
      if (space < 0) {
        throw new IllegalArgumentException("missing schedule after the time zone: " + spec);
      }
      String name = rest.substring(eq + 1, space);
      zone = zone(name);
      if (zone == null) {
        throw new IllegalArgumentException("provided bad location " + name + ": unknown time zone " + name);
      }
      rest = rest.substring(space).trim();
    }
    if (rest.startsWith("@")) {
      return descriptor(spec, rest, zone);
    }
    String[] fields = rest.trim().isEmpty() ? new String[0] : rest.trim().split("\\s+");
    if (fields.length != 5) {
      throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": " + rest);
    }
    return new CronSchedule(spec, zone, field(fields[0], MINUTES), field(fields[1], HOURS), field(fields[2], DOM),
        field(fields[3], MONTH), field(fields[4], DOW), null);
  }

  /**
   * The IANA zone named {@code name} (an id of {@link ZoneId#getAvailableZoneIds()}, as Go's
   * {@code time.LoadLocation} reads the tz database), or {@code null}; offsets such as {@code +01:00} are not zone
   * names.
   */
  public static @Nullable ZoneId zone(String name) {
    if (name.isEmpty() || name.equals("UTC")) {
      return ZoneOffset.UTC;
    }
    Set<String> ids = ZoneId.getAvailableZoneIds();
    if (!ids.contains(name)) {
      return null;
    }
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static CronSchedule descriptor(String spec, String d, @Nullable ZoneId zone) {
    long allMonths = all(MONTH);
    long allDom = all(DOM);
    long allDow = all(DOW);
    long allHours = all(HOURS);
    switch (d) {
      case "@yearly":
      case "@annually":
        return new CronSchedule(spec, zone, 1L, 1L, 1L << 1, 1L << 1, allDow, null);
      case "@monthly":
        return new CronSchedule(spec, zone, 1L, 1L, 1L << 1, allMonths, allDow, null);
      case "@weekly":
        return new CronSchedule(spec, zone, 1L, 1L, allDom, allMonths, 1L, null);
      case "@daily":
      case "@midnight":
        return new CronSchedule(spec, zone, 1L, 1L, allDom, allMonths, allDow, null);
      case "@hourly":
        return new CronSchedule(spec, zone, 1L, allHours, allDom, allMonths, allDow, null);
      default:
        break;
    }
    String everyPrefix = "@every ";
    if (d.startsWith(everyPrefix)) {
      String text = d.substring(everyPrefix.length());
      Duration delay;
      try {
        delay = GoDurations.parse(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("failed to parse duration " + d + ": " + e.getMessage(), e);
      }
      // robfig's Every: at least one second, rounded down to whole seconds
      if (delay.compareTo(Duration.ofSeconds(1)) < 0) {
        delay = Duration.ofSeconds(1);
      }
      delay = Duration.ofSeconds(delay.getSeconds());
      return new CronSchedule(spec, zone, 0, 0, 0, 0, 0, delay);
    }
    throw new IllegalArgumentException("unrecognized descriptor: " + d);
  }

  /** robfig's {@code getField}: a comma-separated list of ranges. */
  static long field(String expr, Bounds b) {
    long bits = 0;
    for (String range : expr.split(",", -1)) {
      bits |= range(range, b);
    }
    return bits;
  }

  /** robfig's {@code getRange}: {@code number | number "-" number [ "/" number ]} or {@code *}/{@code ?}. */
  static long range(String expr, Bounds b) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    boolean single = lowAndHigh.length == 1;
    int start;
    int end;
    long extra = 0;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = b.min();
      end = b.max();
      extra = STAR;
    } else {
      start = intOrName(lowAndHigh[0], b.names());
      if (lowAndHigh.length == 1) {
        end = start;
      } else if (lowAndHigh.length == 2) {
        end = intOrName(lowAndHigh[1], b.names());
      } else {
        throw new IllegalArgumentException("too many hyphens: " + expr);
      }
    }
    int step;
    if (rangeAndStep.length == 1) {
      step = 1;
    } else if (rangeAndStep.length == 2) {
      step = number(rangeAndStep[1]);
      if (single) {
        end = b.max(); // "N/step" means "N-max/step"
      }
      if (step > 1) {
        extra = 0;
      }
    } else {
      throw new IllegalArgumentException("too many slashes: " + expr);
    }
    if (start < b.min()) {
      throw new IllegalArgumentException("beginning of range (" + start + ") below minimum (" + b.min() + "): "
          + expr);
    }
    if (end > b.max()) {
      throw new IllegalArgumentException("end of range (" + end + ") above maximum (" + b.max() + "): " + expr);
    }
    if (start > end) {
      throw new IllegalArgumentException("beginning of range (" + start + ") beyond end of range (" + end + "): "
          + expr);
    }
    if (step == 0) {
      throw new IllegalArgumentException("step of range should be a positive number: " + expr);
    }
    return bits(start, end, step) | extra;
  }

  private static int intOrName(String expr, @Nullable Map<String, Integer> names) {
    if (names != null) {
      Integer named = names.get(expr.toLowerCase(Locale.ROOT));
      if (named != null) {
        return named;
      }
    }
    return number(expr);
  }

  /** robfig's {@code mustParseInt} (Go's {@code strconv.Atoi}, then non-negative). */
  private static int number(String expr) {
    int n;
    try {
      n = GoIntegers.atoi32(expr);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("failed to parse int from " + expr + ": invalid syntax", e);
    }
    if (n < 0) {
      throw new IllegalArgumentException("negative number (" + n + ") not allowed: " + expr);
    }
    return n;
  }

  /** robfig's {@code getBits}: the bits {@code min, min+step, ... <= max}. */
  static long bits(int min, int max, int step) {
    long bits = 0;
    for (int i = min; i <= max; i += step) {
      bits |= 1L << i;
    }
    return bits;
  }

  static long all(Bounds b) {
    return bits(b.min(), b.max(), 1) | STAR;
  }

  /** The text parsed. */
  public String spec() {
    return spec;
  }

  /** The zone of a {@code TZ=}/{@code CRON_TZ=} prefix, or {@code null}. */
  public @Nullable ZoneId zone() {
    return zone;
  }

  /** The delay of an {@code @every} schedule, or {@code null}. */
  public @Nullable Duration every() {
    return every;
  }

  /**
   * The first activation strictly after {@code from}, computed in the schedule's zone or else UTC; {@code null} when
   * none comes within five years (a day that never exists, {@code 0 0 30 2 *}).
   */
  public @Nullable Instant next(Instant from) {
    ZonedDateTime n = next(from.atZone(ZoneOffset.UTC));
    return n == null ? null : n.toInstant();
  }

  /**
   * robfig's {@code Next}: the first activation strictly after {@code from}, in {@code from}'s zone; computed in the
   * schedule's zone or else {@code from}'s; {@code null} when none comes within five years.
   */
  public @Nullable ZonedDateTime next(ZonedDateTime from) {
    if (every != null) {
      return from.plus(every).minusNanos(from.getNano());
    }
    ZoneId original = from.getZone();
    ZoneId loc = zone != null ? zone : original;
    ZonedDateTime t = from.withZoneSameInstant(loc);
    // the upcoming whole second
    t = t.plusSeconds(1).minusNanos(t.getNano());
    boolean added = false;
    int yearLimit = t.getYear() + YEARS_AHEAD;
    wrap:
    while (true) {
      if (t.getYear() > yearLimit) {
        return null;
      }
      while ((1L << t.getMonthValue() & month) == 0) {
        if (!added) {
          added = true;
          t = at(loc, LocalDateTime.of(t.getYear(), t.getMonthValue(), 1, 0, 0), t);
        }
        t = t.plusMonths(1);
        if (t.getMonthValue() == 1) {
          continue wrap;
        }
      }
      while (!dayMatches(t)) {
        if (!added) {
          added = true;
          t = at(loc, t.toLocalDate().atStartOfDay(), t);
        }
        t = t.plusDays(1);
        // midnight may not exist on a DST day: move back to the day's first hour
        if (t.getHour() != 0) {
          t = t.getHour() > 12 ? t.plusHours(24 - t.getHour()) : t.minusHours(t.getHour());
        }
        if (t.getDayOfMonth() == 1) {
          continue wrap;
        }
      }
      while ((1L << t.getHour() & hour) == 0) {
        if (!added) {
          added = true;
          t = at(loc, t.toLocalDateTime().truncatedTo(ChronoUnit.HOURS), t);
        }
        t = t.plusHours(1);
        if (t.getHour() == 0) {
          continue wrap;
        }
      }
      while ((1L << t.getMinute() & minute) == 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.MINUTES);
        }
        t = t.plusMinutes(1);
        if (t.getMinute() == 0) {
          continue wrap;
        }
      }
      // the standard parser's seconds field is 0
      if (t.getSecond() != 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.SECONDS);
        }
        t = t.plusSeconds(60 - t.getSecond());
        continue wrap;
      }
      return t.withZoneSameInstant(original);
    }
  }

  private static ZonedDateTime at(ZoneId loc, LocalDateTime local, ZonedDateTime keepOffsetOf) {
    return ZonedDateTime.ofLocal(local, loc, keepOffsetOf.getOffset());
  }

  /** robfig's {@code dayMatches}: both must match when either field is a star, else either. */
  private boolean dayMatches(ZonedDateTime t) {
    boolean domMatch = (1L << t.getDayOfMonth() & dom) != 0;
    boolean dowMatch = (1L << (t.getDayOfWeek().getValue() % 7) & dow) != 0;
    if ((dom & STAR) != 0 || (dow & STAR) != 0) {
      return domMatch && dowMatch;
    }
    return domMatch || dowMatch;
  }

  /** Whether the schedule activates at {@code t} (a whole minute in the schedule's zone, or UTC). */
  public boolean matches(Instant t) {
    if (every != null) {
      throw new IllegalStateException("an @every schedule has no fixed activation times: " + spec);
    }
    ZonedDateTime z = t.atZone(zone != null ? zone : ZoneOffset.UTC);
    return z.getSecond() == 0 && z.getNano() == 0 && (1L << z.getMinute() & minute) != 0
        && (1L << z.getHour() & hour) != 0 && (1L << z.getMonthValue() & month) != 0 && dayMatches(z);
  }

  /** The bits of the minute, hour, day-of-month, month and day-of-week fields (bit 63: written as a star). */
  long[] fieldBits() {
    return new long[] {minute, hour, dom, month, dow};
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronSchedule c && spec.equals(c.spec);
  }

  @Override
  public int hashCode() {
    return spec.hashCode();
  }

  @Override
  public String toString() {
    return spec;
  }
}
