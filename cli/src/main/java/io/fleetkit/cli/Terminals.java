package io.fleetkit.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the process's standard error is a terminal, for progress displays that must stay off pipes and files.
 * Java 17 has no call for one stream: {@code System.console()} answers for standard input and output. On Linux the
 * file descriptor's link in {@code /proc/self/fd/2} names the device (a terminal is {@code /dev/pts/N},
 * {@code /dev/ttyN} or {@code /dev/console}); elsewhere the console stands in. Stateless.
 */
final class Terminals {
  private static final Path STDERR = Path.of("/proc/self/fd/2");

  private Terminals() {}

  /** Whether standard error is a terminal. */
  static boolean stderrIsTerminal() {
    if (Files.isSymbolicLink(STDERR)) {
      try {
        return isTerminalDevice(Files.readSymbolicLink(STDERR).toString());
      } catch (IOException | UnsupportedOperationException | SecurityException e) {
        return false;
      }
    }
    return System.console() != null;
  }

  /** Whether {@code target}, where a file descriptor points, is a terminal device. */
  static boolean isTerminalDevice(String target) {
    return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
  }
}
