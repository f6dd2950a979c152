package io.fleetkit.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fleetkit trace}: trace replays; see {@link OpenbTraceCommand}. */
@Command(name = "trace", mixinStandardHelpOptions = true, description = "Replay scheduling traces.",
    subcommands = {OpenbTraceCommand.class})
public final class TraceCommand implements Runnable {
  @Spec
  private CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing trace kind (openb)");
  }
}
