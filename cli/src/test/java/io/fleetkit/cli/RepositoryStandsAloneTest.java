package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone: no tracked file reads or cites a folder beside the checkout (the reference
 * material some contributors keep next to it) or an absolute path of a contributor's machine.
 */
final class RepositoryStandsAloneTest {
  // written in pieces so that this file does not match itself
  private static final Pattern OUTSIDE = Pattern.compile(
      Pattern.quote("..") + "/" + "shared\\b" + "|" + "/" + "work/" + "shared" + "|" + "fleetkit" + "\\.shared\\.dir");

  private static Path root() {
    return CliHarness.root();
  }

  /** The files git tracks, or (outside a git checkout) every file outside build output and VCS folders. */
  private static List<Path> files(Path root) throws IOException, InterruptedException {
    if (Files.isDirectory(root.resolve(".git")) || Files.isRegularFile(root.resolve(".git"))) {
      Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z").redirectErrorStream(false)
          .start();
      byte[] out = git.getInputStream().readAllBytes();
      if (git.waitFor() == 0) {
        List<Path> files = new ArrayList<>();
        for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
          if (!name.isEmpty()) {
            files.add(root.resolve(name));
          }
        }
        return files;
      }
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(f -> !root.relativize(f).toString().matches("(.*/)?(target|\\.git|\\.mvn)/.*")).toList();
    }
  }

  @Test
  void trackedFiles_neverReferToAFolderOutsideTheRepository() throws Exception {
    Path root = root();
    List<Path> files = files(root);
    assertThat(files).as("files found under %s", root).hasSizeGreaterThan(100);
    List<String> offenders = new ArrayList<>();
    for (Path f : files) {
      if (!Files.isRegularFile(f) || f.toString().endsWith(".gz")) {
        continue;
      }
      String text;
      try {
        text = Files.readString(f, StandardCharsets.UTF_8);
      } catch (MalformedInputException binary) {
        continue;
      }
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (OUTSIDE.matcher(lines[i]).find()) {
          offenders.add(root.relativize(f) + ":" + (i + 1) + ": " + lines[i].strip());
        }
      }
    }
    assertThat(offenders).as("tracked files that point outside the repository").isEmpty();
  }
}
