package io.fleetkit.api.time;

/**
 * Text that {@link GoDurations#parse} cannot read: its message is Go's ({@code time: invalid duration "1x"}),
 * a colon and the rule broken; {@link #rule()} and {@link #outOfRange()} let a caller word the error in its own
 * terms (the object and the field).
 */
public final class InvalidGoDurationException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String text;
  private final String rule;
  private final boolean outOfRange;

  InvalidGoDurationException(String text, String goMessage, String rule, boolean outOfRange) {
    super(goMessage + ": " + rule);
    this.text = text;
    this.rule = rule;
    this.outOfRange = outOfRange;
  }

  /** The text that was read. */
  public String text() {
    return text;
  }

  /** The rule it broke, such as {@code the units are ns, us (or µs), ms, s, m, h}. */
  public String rule() {
    return rule;
  }

  /** Whether the text is well formed but its value lies outside Go's range ({@link GoDurations#MIN} to MAX). */
  public boolean outOfRange() {
    return outOfRange;
  }
}
