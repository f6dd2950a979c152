package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The root command: the commands it knows, and the command line {@code main} builds for a run's arguments. */
final class FleetKitCliTest {

  @Test
  void everyCommandIsListedUnderItsOwnName() {
    for (var e : FleetKitCli.COMMANDS.entrySet()) {
      Object command = e.getValue().get();
      assertThat(command.getClass().getAnnotation(Command.class).name()).as(command.getClass().getName())
          .isEqualTo(e.getKey());
    }
    assertThat(FleetKitCli.commandLine().getSubcommands().keySet()).containsExactlyElementsOf(
        FleetKitCli.COMMANDS.keySet());
  }

  @Test
  void argumentsThatNameACommand_buildThatCommandOnly_withTheSameOptionsAndHelp() {
    CommandLine full = FleetKitCli.commandLine();
    for (String name : FleetKitCli.COMMANDS.keySet()) {
      CommandLine one = FleetKitCli.commandLine(name, "--help");
      assertThat(one.getSubcommands().keySet()).as(name).containsExactly(name);
      assertThat(usage(one.getSubcommands().get(name))).as(name).isEqualTo(usage(full.getSubcommands().get(name)));
    }
  }

  @Test
  void noCommandOrAnUnknownOne_buildsEveryCommand_soTheUsageListsThemAndErrorsCanSuggestOne() {
    for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"simulat"},
        new String[] {"-V"})) {
      assertThat(FleetKitCli.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args))
          .containsExactlyElementsOf(FleetKitCli.COMMANDS.keySet());
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(CliHarness.run(out, err)).isZero();
    assertThat(out.toString()).contains("Usage: fleetkit");
    List<String> missing = new ArrayList<>();
    for (String name : FleetKitCli.COMMANDS.keySet()) {
      if (!out.toString().contains("  " + name + " ")) {
        missing.add(name);
      }
    }
    assertThat(missing).as("commands missing from the usage:%n%s", out).isEmpty();

    out.getBuffer().setLength(0);
    assertThat(CliHarness.run(out, err, "simulat", "x")).isEqualTo(2);
    assertThat(err.toString()).contains("simulate");
  }

  @Test
  void eachCommandIsMadeAfresh() {
    for (Supplier<Object> s : FleetKitCli.COMMANDS.values()) {
      assertThat(s.get()).isNotSameAs(s.get());
    }
  }

  @Test
  void everyCommandsSummaryIsOneWholeSentence() {
    // the command lists show a command's first description line only; a line cut where the source wrapped it read
    // "Schedule the pending pods of Kubernetes YAML manifests (nodes, running pods, priority classes,"
    List<String> cut = new ArrayList<>();
    List<CommandLine> todo = new ArrayList<>(FleetKitCli.commandLine().getSubcommands().values());
    while (!todo.isEmpty()) {
      CommandLine c = todo.remove(todo.size() - 1);
      todo.addAll(c.getSubcommands().values());
      String[] description = c.getCommandSpec().usageMessage().description();
      String summary = description.length == 0 ? "" : description[0];
      if (!summary.endsWith(".") || summary.chars().filter(ch -> ch == '(').count()
          != summary.chars().filter(ch -> ch == ')').count()) {
        cut.add(c.getCommandSpec().qualifiedName() + ": " + summary);
      }
    }
    assertThat(cut).as("summaries that are not a whole sentence").isEmpty();
  }

  @Test
  void everyOptionsDescriptionLinesAreWholeSentences() {
    // picocli starts a new line at each description line and wraps each to the help's width; a line cut where the
    // source wrapped it printed ragged help ("... GpuPacking, GpuClustering," then "Random, FGD, ...")
    List<String> cut = new ArrayList<>();
    int lines = 0;
    List<CommandLine> todo = new ArrayList<>(FleetKitCli.commandLine().getSubcommands().values());
    while (!todo.isEmpty()) {
      CommandLine c = todo.remove(todo.size() - 1);
      todo.addAll(c.getCommandSpec().subcommands().values());
      for (CommandLine.Model.ArgSpec a : c.getCommandSpec().args()) {
        for (String line : a.description()) {
          lines++;
          if (!(line.endsWith(".") || line.endsWith(".)")) || line.chars().filter(ch -> ch == '(').count()
              != line.chars().filter(ch -> ch == ')').count()) {
            cut.add(c.getCommandSpec().qualifiedName() + " " + a.paramLabel() + ": " + line);
          }
        }
      }
    }
    assertThat(lines).as("description lines read").isGreaterThan(100);
    assertThat(cut).as("option description lines that are not whole sentences").isEmpty();
  }

  private static String usage(CommandLine c) {
    StringWriter w = new StringWriter();
    c.usage(new PrintWriter(w, true), CommandLine.Help.Ansi.OFF);
    return w.toString();
  }
}
