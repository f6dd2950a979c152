package io.fleetkit.scheduler.testing;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPLogger;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of this module's tests: discards log lines (as the no-op fallback did) but keeps a real MDC, so
 * tests can read the keys the scheduler puts there.
 */
public final class MdcTestLogging implements SLF4JServiceProvider {
  private final MDCAdapter mdc = new BasicMDCAdapter();
  private final IMarkerFactory markers = new BasicMarkerFactory();

  @Override
  public ILoggerFactory getLoggerFactory() {
    return name -> NOPLogger.NOP_LOGGER;
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
  public void initialize() {}
}
