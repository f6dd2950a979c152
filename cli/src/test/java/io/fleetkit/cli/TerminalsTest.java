package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class TerminalsTest {
  @Test
  void terminalDevices_areTerminals_pipesAndFilesAreNot() {
    assertThat(Terminals.isTerminalDevice("/dev/pts/3")).isTrue();
    assertThat(Terminals.isTerminalDevice("/dev/tty1")).isTrue();
    assertThat(Terminals.isTerminalDevice("/dev/console")).isTrue();
    assertThat(Terminals.isTerminalDevice("pipe:[123456]")).isFalse();
    assertThat(Terminals.isTerminalDevice("/tmp/out.log")).isFalse();
    assertThat(Terminals.isTerminalDevice("/dev/null")).isFalse();
  }

  @Test
  void underTheTestRunner_stderrIsNoTerminal() {
    // surefire's forked JVM writes its standard error to a pipe or a file
    assertThat(Terminals.stderrIsTerminal()).isFalse();
  }
}
