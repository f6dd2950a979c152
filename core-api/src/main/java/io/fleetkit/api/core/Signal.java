package io.fleetkit.api.core;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The signals a container's {@code lifecycle.stopSignal} may name (Kubernetes' {@code core/v1 Signal}, KEP-4960):
 * on Linux every signal below, on Windows only {@link #SIGTERM} and {@link #SIGKILL}. Each carries its Kubernetes
 * name ({@code SIGRTMIN+1}, ...), its Linux number (so that a process the signal ends reports exit code
 * 128 + number) and whether its default action ends a process: those that are ignored ({@code SIGCHLD},
 * {@code SIGCONT}, {@code SIGURG}, {@code SIGWINCH}) or stop it ({@code SIGSTOP}, {@code SIGTSTP}, {@code SIGTTIN},
 * {@code SIGTTOU}) by default do not.
 */
public enum Signal {
  SIGABRT(6),
  SIGALRM(14),
  SIGBUS(7),
  SIGCHLD(17, false),
  SIGCLD(17, false),
  SIGCONT(18, false),
  SIGFPE(8),
  SIGHUP(1),
  SIGILL(4),
  SIGINT(2),
  SIGIO(29),
  SIGIOT(6),
  SIGKILL(9),
  SIGPIPE(13),
  SIGPOLL(29),
  SIGPROF(27),
  SIGPWR(30),
  SIGQUIT(3),
  SIGSEGV(11),
  SIGSTKFLT(16),
  SIGSTOP(19, false),
  SIGSYS(31),
  SIGTERM(15),
  SIGTRAP(5),
  SIGTSTP(20, false),
  SIGTTIN(21, false),
  SIGTTOU(22, false),
  SIGURG(23, false),
  SIGUSR1(10),
  SIGUSR2(12),
  SIGVTALRM(26),
  SIGWINCH(28, false),
  SIGXCPU(24),
  SIGXFSZ(25),
  SIGRTMIN("SIGRTMIN", 34),
  SIGRTMINPLUS1("SIGRTMIN+1", 35),
  SIGRTMINPLUS2("SIGRTMIN+2", 36),
  SIGRTMINPLUS3("SIGRTMIN+3", 37),
  SIGRTMINPLUS4("SIGRTMIN+4", 38),
  SIGRTMINPLUS5("SIGRTMIN+5", 39),
  SIGRTMINPLUS6("SIGRTMIN+6", 40),
  SIGRTMINPLUS7("SIGRTMIN+7", 41),
  SIGRTMINPLUS8("SIGRTMIN+8", 42),
  SIGRTMINPLUS9("SIGRTMIN+9", 43),
  SIGRTMINPLUS10("SIGRTMIN+10", 44),
  SIGRTMINPLUS11("SIGRTMIN+11", 45),
  SIGRTMINPLUS12("SIGRTMIN+12", 46),
  SIGRTMINPLUS13("SIGRTMIN+13", 47),
  SIGRTMINPLUS14("SIGRTMIN+14", 48),
  SIGRTMINPLUS15("SIGRTMIN+15", 49),
  SIGRTMAXMINUS14("SIGRTMAX-14", 50),
  SIGRTMAXMINUS13("SIGRTMAX-13", 51),
  SIGRTMAXMINUS12("SIGRTMAX-12", 52),
  SIGRTMAXMINUS11("SIGRTMAX-11", 53),
  SIGRTMAXMINUS10("SIGRTMAX-10", 54),
  SIGRTMAXMINUS9("SIGRTMAX-9", 55),
  SIGRTMAXMINUS8("SIGRTMAX-8", 56),
  SIGRTMAXMINUS7("SIGRTMAX-7", 57),
  SIGRTMAXMINUS6("SIGRTMAX-6", 58),
  SIGRTMAXMINUS5("SIGRTMAX-5", 59),
  SIGRTMAXMINUS4("SIGRTMAX-4", 60),
  SIGRTMAXMINUS3("SIGRTMAX-3", 61),
  SIGRTMAXMINUS2("SIGRTMAX-2", 62),
  SIGRTMAXMINUS1("SIGRTMAX-1", 63),
  SIGRTMAX("SIGRTMAX", 64);

  private static final Map<String, Signal> BY_NAME =
      Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(Signal::signalName, Function.identity()));

  /** The signals a Windows pod's containers may be stopped with ({@code supportedStopSignalsWindows}). */
  public static final List<Signal> WINDOWS = List.of(SIGKILL, SIGTERM);

  private final String signalName;
  private final int number;
  private final boolean terminates;

  Signal(int number) {
    this(null, number, true);
  }

  Signal(int number, boolean terminates) {
    this(null, number, terminates);
  }

  Signal(String signalName, int number) {
    this(signalName, number, true);
  }

  Signal(@Nullable String signalName, int number, boolean terminates) {
    this.signalName = signalName == null ? name() : signalName;
    this.number = number;
    this.terminates = terminates;
  }

  /** The name Kubernetes and the API use, e.g. {@code SIGTERM} or {@code SIGRTMIN+1}. */
  public String signalName() {
    return signalName;
  }

  /** The signal's number on Linux (glibc's, {@code SIGRTMIN} being 34). */
  public int number() {
    return number;
  }

  /** The exit code a process reports when this signal ended it: 128 + {@link #number()}. */
  public int exitCode() {
    return 128 + number;
  }

  /** Whether the signal's default action ends a process (it is neither ignored nor stops it by default). */
  public boolean terminatesByDefault() {
    return terminates;
  }

  /** The signal of Kubernetes name {@code name}; {@code null} when there is none. */
  public static @Nullable Signal of(String name) {
    return BY_NAME.get(name);
  }
}
