package io.fleetkit.adapter.slurm;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A batch job to submit: what both the REST body ({@link SlurmClient#submit}) and the sbatch script
 * ({@link SbatchScript#render}) are made from, so that the two describe the same job.
 *
 * <p>Build with {@link #builder()}. Validation names the field and value, e.g. {@code slurm job "train":
 * nodes 0 must be at least 1}.
 *
 * @param name the job name ({@code --job-name}); letters, digits, {@code . _ -}
 * @param script the batch script, starting with {@code #!}
 * @param partition the partition ({@code --partition}), empty for the cluster's default
 * @param nodes the node count ({@code --nodes}, REST {@code nodes})
 * @param tasksPerNode tasks on each node ({@code --ntasks-per-node}, REST {@code tasks_per_node}); the job has
 *     {@code nodes * tasksPerNode} tasks in all
 * @param cpusPerTask CPUs per task ({@code --cpus-per-task}), null for Slurm's default (1)
 * @param gpusPerNode GPUs on each node ({@code --gres=gpu:K}, REST {@code gres}), 0 for none
 * @param memoryPerNodeMiB memory per node in MiB ({@code --mem}, REST {@code memory_per_node}), null for the
 *     partition's default
 * @param timeLimit the time limit, rounded up to whole minutes ({@code --time}, REST {@code time_limit}), null for
 *     the partition's default
 * @param environment the job's environment (REST {@code environment}, required by slurmrestd 22.05; in the sbatch
 *     script {@code --export=NONE} plus one {@code export} line per entry)
 * @param array array indexes ({@code --array}, REST {@code array}), e.g. {@code 0-3} or {@code 1,3,5%2}; empty
 *     for a plain job
 * @param workingDirectory the working directory ({@code --chdir})
 * @param standardOutput the output file ({@code --output}), empty for Slurm's default {@code slurm-%j.out}
 * @param standardError the error file ({@code --error}), empty to go with the output
 */
public record SlurmJobSpec(String name, String script, String partition, int nodes, int tasksPerNode,
    @Nullable Integer cpusPerTask, int gpusPerNode, @Nullable Long memoryPerNodeMiB, @Nullable Duration timeLimit,
    Map<String, String> environment, String array, String workingDirectory, String standardOutput,
    String standardError) {
  /** The PATH given to a job whose environment names none (slurmrestd starts jobs with only what it is given). */
  public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,199}");
  private static final Pattern ARRAY = Pattern.compile("[0-9]+(-[0-9]+(:[0-9]+)?)?(,[0-9]+(-[0-9]+(:[0-9]+)?)?)*"
      + "(%[0-9]+)?");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9._-]*");

  public SlurmJobSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(script, "script");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(array, "array");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(standardOutput, "standardOutput");
    Objects.requireNonNull(standardError, "standardError");
    String what = "slurm job \"" + name + "\": ";
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(what + "name must be 1-200 letters, digits, '.', '_' or '-' starting with "
          + "a letter or digit");
    }
    if (!script.startsWith("#!")) {
      throw new IllegalArgumentException(what + "script must start with an interpreter line (#!), got \""
          + script.lines().findFirst().orElse("") + "\"");
    }
    if (!PARTITION.matcher(partition).matches()) {
      throw new IllegalArgumentException(what + "partition \"" + partition + "\" is not a valid partition name");
    }
    if (nodes < 1) {
      throw new IllegalArgumentException(what + "nodes " + nodes + " must be at least 1");
    }
    if (tasksPerNode < 1) {
      throw new IllegalArgumentException(what + "tasksPerNode " + tasksPerNode + " must be at least 1");
    }
    if (cpusPerTask != null && cpusPerTask < 1) {
      throw new IllegalArgumentException(what + "cpusPerTask " + cpusPerTask + " must be at least 1");
    }
    if (gpusPerNode < 0) {
      throw new IllegalArgumentException(what + "gpusPerNode " + gpusPerNode + " must not be negative");
    }
    if (memoryPerNodeMiB != null && memoryPerNodeMiB < 1) {
      throw new IllegalArgumentException(what + "memoryPerNodeMiB " + memoryPerNodeMiB + " must be at least 1");
    }
    if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
      throw new IllegalArgumentException(what + "timeLimit " + timeLimit + " must be positive");
    }
    if (!array.isEmpty() && !ARRAY.matcher(array).matches()) {
      throw new IllegalArgumentException(what + "array \"" + array + "\" must look like 0-3, 1,3,5 or 0-15:4%2");
    }
    if (workingDirectory.isEmpty() || !workingDirectory.startsWith("/")) {
      throw new IllegalArgumentException(what + "workingDirectory \"" + workingDirectory + "\" must be absolute");
    }
    for (String[] f : new String[][] {{"standardOutput", standardOutput}, {"standardError", standardError},
        {"workingDirectory", workingDirectory}}) {
      if (f[1].chars().anyMatch(c -> c < 0x20 || c == ' ')) {
        throw new IllegalArgumentException(what + f[0] + " \"" + f[1] + "\" must not contain blanks or control "
            + "characters");
      }
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : environment.entrySet()) {
      if (!ENV_NAME.matcher(e.getKey()).matches()) {
        throw new IllegalArgumentException(what + "environment name \"" + e.getKey() + "\" is not a valid variable "
            + "name");
      }
      env.put(e.getKey(), Objects.requireNonNull(e.getValue(), "environment value"));
    }
    env.putIfAbsent("PATH", DEFAULT_PATH);
    environment = java.util.Collections.unmodifiableMap(env);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** All tasks: {@code nodes * tasksPerNode}. */
  public int tasks() {
    return nodes * tasksPerNode;
  }

  /** The time limit in whole minutes, rounded up (Slurm's unit), or null. */
  public @Nullable Long timeLimitMinutes() {
    if (timeLimit == null) {
      return null;
    }
    long s = timeLimit.toSeconds() + (timeLimit.toNanosPart() > 0 ? 1 : 0);
    return (s + 59) / 60;
  }

  /** Builder; name and script are required, everything else has Slurm's default. Not thread-safe. */
  public static final class Builder {
    private @Nullable String name;
    private @Nullable String script;
    private String partition = "";
    private int nodes = 1;
    private int tasksPerNode = 1;
    private @Nullable Integer cpusPerTask;
    private int gpusPerNode;
    private @Nullable Long memoryPerNodeMiB;
    private @Nullable Duration timeLimit;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String array = "";
    private String workingDirectory = "/tmp";
    private String standardOutput = "";
    private String standardError = "";

    private Builder() {}

    public Builder name(String v) { name = v; return this; }
    public Builder script(String v) { script = v; return this; }
    public Builder partition(String v) { partition = v; return this; }
    public Builder nodes(int v) { nodes = v; return this; }
    public Builder tasksPerNode(int v) { tasksPerNode = v; return this; }
    public Builder cpusPerTask(@Nullable Integer v) { cpusPerTask = v; return this; }
    public Builder gpusPerNode(int v) { gpusPerNode = v; return this; }
    public Builder memoryPerNodeMiB(@Nullable Long v) { memoryPerNodeMiB = v; return this; }
    public Builder timeLimit(@Nullable Duration v) { timeLimit = v; return this; }
    public Builder environment(Map<String, String> v) { environment.clear(); environment.putAll(v); return this; }
    public Builder env(String k, String v) { environment.put(k, v); return this; }
    public Builder array(String v) { array = v; return this; }
    public Builder workingDirectory(String v) { workingDirectory = v; return this; }
    public Builder standardOutput(String v) { standardOutput = v; return this; }
    public Builder standardError(String v) { standardError = v; return this; }

    public SlurmJobSpec build() {
      if (name == null) {
        throw new IllegalStateException("slurm job: name is required");
      }
      if (script == null) {
        throw new IllegalStateException("slurm job \"" + name + "\": script is required");
      }
      return new SlurmJobSpec(name, script, partition, nodes, tasksPerNode, cpusPerTask, gpusPerNode,
          memoryPerNodeMiB, timeLimit, environment, array, workingDirectory, standardOutput, standardError);
    }
  }
}
