package io.fleetkit.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code fleetkit} command. */
@Command(name = "fleetkit", mixinStandardHelpOptions = true, version = "fleetkit 0.1.0-SNAPSHOT",
    description = "FleetKit: desired-state scheduling and reconciliation for fleets of machines.",
    subcommands = {ValidateCommand.class, ScheduleCommand.class, TraceCommand.class, SimulateCommand.class,
        ReplicaCommand.class,
        RouteCommand.class, DnsCommand.class})
public final class FleetKitCli implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new FleetKitCli()).execute(args));
  }
}
