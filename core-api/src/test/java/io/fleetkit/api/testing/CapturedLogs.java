package io.fleetkit.api.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of FleetKit's test suites: every log line of a module's whole test run, at every level, with its
 * MDC and its exception's stack trace, is checked against the secret values of the tests (the constants here and
 * whatever a test {@link #registerSecret registers}, each also in base64 as a Secret's {@code data} holds it); the
 * last lines are kept for assertions, and lines of WARN and above go to standard error.
 *
 * <p>It ships in core-api's test jar together with its {@code META-INF/services} entry and a
 * {@code junit-platform.properties} that orders test classes by {@code @Order}: a module that puts the test jar on
 * its test class path logs through it. A leaking line fails twice: the logging call throws an {@link AssertionError}
 * (so a leak in any test engine, jqwik's included, fails the test that caused it, unless code under test swallows
 * errors), and the module's {@code SecretValuesInLogsTest} ({@code @Order(Integer.MAX_VALUE)}, the last Jupiter
 * class) fails when {@link #leaks()} is not empty, which catches leaks on threads whose errors nobody sees.
 * Thread-safe.
 */
public final class CapturedLogs implements SLF4JServiceProvider {
  /** A secret value tests put in Secrets, env vars and the like; it must never be logged. */
  public static final String TEST_SECRET = "s3cr3t-db-password-4f9a";
  /** A bearer token tests use; it must never be logged. */
  public static final String TEST_TOKEN = "tok-9f8e7d6c5b4a3210aa";
  /** A value tests put in ConfigMaps marked as sensitive (credentials in configuration); it must never be logged. */
  public static final String TEST_CONFIG_SECRET = "cfg-api-key-7b2c1d0e";

  private static final int KEEP = 10_000;
  private static final Deque<String> LINES = new ArrayDeque<>();
  private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();
  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
  private static final AtomicLong SCANNED = new AtomicLong();

  static {
    registerSecret(TEST_SECRET);
    registerSecret(TEST_TOKEN);
    registerSecret(TEST_CONFIG_SECRET);
  }

  private final BasicMDCAdapter mdc = new BasicMDCAdapter();
  private final BasicMarkerFactory markers = new BasicMarkerFactory();

  /** Whether SLF4J logs through this provider in this JVM (false when another provider won). */
  public static boolean active() {
    return org.slf4j.LoggerFactory.getILoggerFactory() instanceof CapturingFactory;
  }

  /** The last lines logged in this JVM (at most 10,000). */
  public static List<String> lines() {
    synchronized (LINES) {
      return List.copyOf(LINES);
    }
  }

  /** Registers a secret value a test uses: every later log line is checked for it and for its base64 form. */
  public static void registerSecret(String value) {
    if (value.length() < 8) {
      throw new IllegalArgumentException("secret value \"" + value + "\" is too short to scan for (at least 8 chars)");
    }
    SECRETS.add(value);
    SECRETS.add(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Stops scanning for {@code value} and drops the leaks it caused: for the scanner's own test, which leaks a value on
   * purpose to prove the scan catches it.
   */
  public static void forgetSecret(String value) {
    String b64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    SECRETS.remove(value);
    SECRETS.remove(b64);
    LEAKS.removeIf(l -> l.contains(value) || l.contains(b64));
  }

  /** The log lines that contained a registered secret, in either form. */
  public static List<String> leaks() {
    return List.copyOf(LEAKS);
  }

  /** How many lines were checked. */
  public static long scanned() {
    return SCANNED.get();
  }

  /**
   * The check each module's {@code SecretValuesInLogsTest} ends with.
   *
   * @throws AssertionError listing the leaking lines (secrets masked) when any line held a secret, or when this
   *     provider is not the one SLF4J uses (then nothing was scanned)
   */
  public static void assertNoLeaks() {
    if (!active()) {
      throw new AssertionError("SLF4J does not log through " + CapturedLogs.class.getName()
          + ": another provider is on the test class path, so no log line was scanned");
    }
    List<String> leaks = maskedLeaks();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " log lines of this test run hold a secret value:\n"
          + String.join("\n", leaks));
    }
  }

  /** Lines to a readable report: each leak with the secret masked. */
  public static List<String> maskedLeaks() {
    List<String> out = new ArrayList<>();
    for (String l : LEAKS) {
      String m = l;
      for (String s : SECRETS) {
        m = m.replace(s, "<secret>");
      }
      out.add(m);
    }
    return out;
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  private final CapturingFactory factory = new CapturingFactory();

  private final class CapturingFactory implements ILoggerFactory {
    private final Map<String, CapturingLogger> loggers = new ConcurrentHashMap<>();

    @Override
    public org.slf4j.Logger getLogger(String name) {
      return loggers.computeIfAbsent(name, CapturingLogger::new);
    }
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

  /**
   * Runs {@code action} with leaks reported but not thrown on this thread: for the scanner's own test, which leaks on
   * purpose.
   */
  public static void whileLeaking(Runnable action) {
    EXPECTING.set(true);
    try {
      action.run();
    } finally {
      EXPECTING.remove();
    }
  }

  private static final ThreadLocal<Boolean> EXPECTING = ThreadLocal.withInitial(() -> false);

  static void check(String line) {
    synchronized (LINES) {
      LINES.addLast(line);
      if (LINES.size() > KEEP) {
        LINES.removeFirst();
      }
    }
    SCANNED.incrementAndGet();
    for (String secret : SECRETS) {
      if (line.contains(secret)) {
        LEAKS.add(line);
        if (!EXPECTING.get()) {
          // Fail where the leak happens too: test engines that run after the last Jupiter class (jqwik) are not
          // covered by SecretValuesInLogsTest, and a thrown error names the logging call in its stack trace.
          String masked = line;
          for (String s : SECRETS) {
            masked = masked.replace(s, "<secret>");
          }
          throw new AssertionError("a log line holds a secret value: " + masked);
        }
        break;
      }
    }
  }

  /**
   * Loggers whose DEBUG and TRACE are off: the HTTP/2 frame loggers of Netty and gRPC, which at DEBUG write every
   * frame of every call (headers, and payloads as hex dumps a secret scan cannot read). They are not FleetKit's lines,
   * and formatting them cost the etcd store's tests a quarter of their single network thread.
   */
  private static final List<String> FRAME_LOGGERS = List.of("io.grpc.netty.NettyClientHandler",
      "io.grpc.netty.NettyServerHandler", "io.netty.handler.codec.http2.");

  private final class CapturingLogger extends AbstractLogger {
    private final boolean verbose;

    CapturingLogger(String name) {
      this.name = name;
      this.verbose = FRAME_LOGGERS.stream().noneMatch(name::startsWith);
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
      check(line);
      if (level.toInt() >= Level.WARN.toInt()) {
        System.err.println(line);
      }
    }

    @Override
    public boolean isTraceEnabled() {
      return verbose;
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
      return verbose;
    }

    @Override
    public boolean isDebugEnabled() {
      return verbose;
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
      return verbose;
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
