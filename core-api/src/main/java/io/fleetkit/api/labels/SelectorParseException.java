package io.fleetkit.api.labels;

/**
 * A label selector string could not be parsed. The message names the input, the position (0-based character
 * offset) and the problem in apimachinery's wording, e.g.
 * {@code label selector "x=a||y=b" at position 3: found '||', ...}.
 */
public final class SelectorParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String input;
  private final int position;
  private final String reason;

  SelectorParseException(String input, int position, String reason) {
    super("label selector \"" + input + "\" at position " + position + ": " + reason);
    this.input = input;
    this.position = position;
    this.reason = reason;
  }

  /** The selector string that failed to parse. */
  public String input() {
    return input;
  }

  /** The 0-based offset of the token where the problem was found ({@code input().length()} at the end). */
  public int position() {
    return position;
  }

  /** The problem, worded as apimachinery's parser words it. */
  public String reason() {
    return reason;
  }
}
