package io.fleetkit.cli;

/** Echoing user input in messages: a hostile 1 MB argument must not become megabytes of error output. */
final class CliText {
  /** The most characters of one input echoed back. */
  static final int MAX_ECHO = 200;

  /** The longest line of a message printed as it is; longer lines are cut (a name of a megabyte, say). */
  static final int MAX_LINE = 2_000;

  private CliText() {}

  /** {@code line}, cut to {@value #MAX_LINE} characters with a note of how much was left out. */
  static String clipLine(String line) {
    return line.length() <= MAX_LINE ? line : line.substring(0, MAX_LINE) + "... (" + (line.length() - MAX_LINE)
        + " more characters)";
  }

  /** {@code s}, or its first {@value #MAX_ECHO} characters and how many more there were. */
  static String clip(String s) {
    return s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "... (" + (s.length() - MAX_ECHO)
        + " more characters)";
  }
}
