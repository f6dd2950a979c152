package io.fleetkit.reconcile.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of this module's tests: every log line of the whole test run, at every level, with its MDC and
 * its exception's stack trace, is checked against the secret values tests registered, and the last lines are kept
 * (and the MDC works, which it does not without a provider). Lines of WARN and above are also printed to standard
 * error.
 */
public final class CapturedLogs implements SLF4JServiceProvider {
  private static final int KEEP = 10_000;
  private static final java.util.Deque<String> LINES = new java.util.ArrayDeque<>();
  /** A secret value tests of this module put in Secrets, env vars and the like; it must never be logged. */
  public static final String TEST_SECRET = "s3cr3t-db-password-4f9a";
  /** A bearer token tests of this module use; it must never be logged. */
  public static final String TEST_TOKEN = "tok-9f8e7d6c5b4a3210aa";
  private static final java.util.Set<String> SECRETS = java.util.concurrent.ConcurrentHashMap.newKeySet();

  static {
    SECRETS.add(TEST_SECRET);
    SECRETS.add(TEST_TOKEN);
  }
  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
  private static final java.util.concurrent.atomic.AtomicLong SCANNED = new java.util.concurrent.atomic.AtomicLong();

  private final BasicMDCAdapter mdc = new BasicMDCAdapter();
  private final BasicMarkerFactory markers = new BasicMarkerFactory();

  /** The last lines logged in this JVM (at most 10,000). */
  public static List<String> lines() {
    synchronized (LINES) {
      return List.copyOf(LINES);
    }
  }

  /** Registers a secret value a test uses: every later log line is checked for it. */
  public static void registerSecret(String value) {
    SECRETS.add(value);
  }

  /** The log lines that contained a registered secret. */
  public static List<String> leaks() {
    return List.copyOf(LEAKS);
  }

  /** How many lines were checked against at least one registered secret. */
  public static long scanned() {
    return SCANNED.get();
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return CapturingLogger::new;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
  }

  private final class CapturingLogger extends AbstractLogger {
    CapturingLogger(String name) {
      this.name = name;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
        Throwable throwable) {
      StringBuilder b = new StringBuilder().append(level).append(' ').append(name).append(' ');
      Map<String, String> context = mdc.getCopyOfContextMap();
      if (context != null && !context.isEmpty()) {
        b.append(context).append(' ');
      }
      b.append(MessageFormatter.basicArrayFormat(messagePattern, arguments));
      if (throwable != null) {
        StringWriter w = new StringWriter();
        throwable.printStackTrace(new PrintWriter(w));
        b.append('\n').append(w);
      }
      String line = b.toString();
      synchronized (LINES) {
        LINES.addLast(line);
        if (LINES.size() > KEEP) {
          LINES.removeFirst();
        }
      }
      if (!SECRETS.isEmpty()) {
        SCANNED.incrementAndGet();
        for (String secret : SECRETS) {
          if (line.contains(secret)) {
            LEAKS.add(line);
          }
        }
      }
      if (level.toInt() >= Level.WARN.toInt()) {
        System.err.println(line);
      }
    }

    @Override
    public boolean isTraceEnabled() {
      return true;
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
      return true;
    }
  }
}
