package io.fleetkit.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Entry point of the {@code fleetkit} command. */
@Command(name = "fleetkit", mixinStandardHelpOptions = true, version = "fleetkit 0.1.0-SNAPSHOT",
    description = "FleetKit: desired-state scheduling and reconciliation for fleets of machines.")
public final class FleetKitCli implements Runnable {
  /** The commands by name ({@link Command#name()} of each), in the order the usage lists them. */
  static final Map<String, Supplier<Object>> COMMANDS = commands();

  @Spec
  private CommandSpec spec;

  private static Map<String, Supplier<Object>> commands() {
    Map<String, Supplier<Object>> m = new LinkedHashMap<>();
    m.put("validate", ValidateCommand::new);
    m.put("schedule", ScheduleCommand::new);
    m.put("trace", TraceCommand::new);
    m.put("simulate", SimulateCommand::new);
    m.put("replica", ReplicaCommand::new);
    m.put("route", RouteCommand::new);
    m.put("dns", DnsCommand::new);
    return Collections.unmodifiableMap(m);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The command line with every command. */
  static CommandLine commandLine() {
    CommandLine root = new CommandLine(new FleetKitCli());
    COMMANDS.values().forEach(c -> root.addSubcommand(c.get()));
    return root;
  }

  /**
   * The command line that runs {@code args}: when they start with a command's name, the root with that command only,
   * which parses them as the full one does (picocli reads every command's annotations when it is added: about 0.2 s
   * of a run's start for all seven, 0.13 s for {@code simulate} alone); otherwise every command, for the usage, the
   * version and the errors that list or suggest commands.
   */
  static CommandLine commandLine(String... args) {
    Supplier<Object> named = args.length == 0 ? null : COMMANDS.get(args[0]);
    if (named == null) {
      return commandLine();
    }
    CommandLine root = new CommandLine(new FleetKitCli());
    root.addSubcommand(named.get());
    return root;
  }

  public static void main(String[] args) {
    System.exit(commandLine(args).execute(args));
  }
}
