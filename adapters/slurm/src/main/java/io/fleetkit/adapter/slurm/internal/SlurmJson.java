package io.fleetkit.adapter.slurm.internal;

import io.fleetkit.adapter.slurm.SlurmError;
import io.fleetkit.adapter.slurm.SlurmException;
import io.fleetkit.adapter.slurm.SlurmJob;
import io.fleetkit.adapter.slurm.SlurmJobSpec;
import io.fleetkit.adapter.slurm.SlurmJobState;
import io.fleetkit.adapter.slurm.SlurmNode;
import io.fleetkit.adapter.slurm.SlurmPartition;
import io.fleetkit.adapter.slurm.SlurmPing;
import io.fleetkit.adapter.slurm.SlurmSubmission;
import io.fleetkit.adapter.slurm.WaitStatus;
import io.fleetkit.api.text.GoIntegers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The slurmrestd OpenAPI v0.0.38 (Slurm 22.05) JSON shapes: response envelopes read as trees (unknown fields are
 * ignored, so newer minor releases that add fields still parse), and the {@code job/submit} body written from a
 * {@link SlurmJobSpec}. Field notes are from real responses (recorded in the adapter's test resources, {@code samples/}).
 */
public final class SlurmJson {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private SlurmJson() {}

  /** Parses a body; throws Jackson's unchecked exception when it is not JSON. */
  public static JsonNode parse(String body) {
    return MAPPER.readTree(body);
  }

  /** The {@code errors} array, in any of its three shapes. */
  public static List<SlurmError> errors(JsonNode root) {
    List<SlurmError> out = new ArrayList<>();
    for (JsonNode e : root.path("errors").values()) {
      int code = 0;
      for (String k : new String[] {"error_code", "error_number", "errno"}) {
        if (e.path(k).isNumber()) {
          code = e.path(k).intValue();
          break;
        }
      }
      out.add(new SlurmError(code, str(e, "error"), str(e, "description"), str(e, "source")));
    }
    return out;
  }

  public static List<SlurmPing> pings(JsonNode root) {
    List<SlurmPing> out = new ArrayList<>();
    for (JsonNode p : root.path("pings").values()) {
      out.add(new SlurmPing(str(p, "hostname"), str(p, "ping"), str(p, "mode")));
    }
    return out;
  }

  public static List<SlurmNode> nodes(JsonNode root) {
    List<SlurmNode> out = new ArrayList<>();
    for (JsonNode n : root.path("nodes").values()) {
      String gres = str(n, "gres");
      out.add(new SlurmNode(str(n, "name"), str(n, "address"), str(n, "hostname"), str(n, "state"),
          strings(n.path("state_flags")), (int) num(n, "cpus", 0), (int) num(n, "alloc_cpus", 0),
          num(n, "real_memory", 0), num(n, "alloc_memory", 0), Gres.gpus(gres), Gres.gpuModel(gres),
          Gres.gpus(str(n, "gres_used")), strings(n.path("partitions")), str(n, "reason")));
    }
    return out;
  }

  public static List<SlurmPartition> partitions(JsonNode root) {
    List<SlurmPartition> out = new ArrayList<>();
    for (JsonNode p : root.path("partitions").values()) {
      long max = num(p, "max_time_limit", -1);
      out.add(new SlurmPartition(str(p, "name"), str(p, "nodes"), str(p, "state"), strings(p.path("flags")),
          (int) num(p, "total_cpus", 0), (int) num(p, "total_nodes", 0), max < 0 ? null : max));
    }
    return out;
  }

  public static List<SlurmJob> jobs(JsonNode root) {
    List<SlurmJob> out = new ArrayList<>();
    for (JsonNode j : root.path("jobs").values()) {
      out.add(job(j));
    }
    return out;
  }

  static SlurmJob job(JsonNode j) {
    JsonNode task = j.path("array_task_id");
    Long limit = j.path("time_limit").isNumber() ? j.path("time_limit").longValue() : null;
    // 22.05 reports "unlimited" as the 32-bit INFINITE (0xffffffff); treat it and negatives as no limit
    if (limit != null && (limit < 0 || limit >= 0xffff_fffeL)) {
      limit = null;
    }
    return new SlurmJob(num(j, "job_id", 0), str(j, "name"), SlurmJobState.parse(str(j, "job_state")),
        str(j, "state_reason"), new WaitStatus((int) num(j, "exit_code", 0)), str(j, "partition"),
        str(j, "nodes"), (int) num(j, "node_count", 0), (int) num(j, "tasks", 0), num(j, "array_job_id", 0),
        task.isNumber() ? task.intValue() : null, limit, time(j, "submit_time"), time(j, "start_time"),
        time(j, "end_time"), strings(j.path("gres_detail")), str(j, "tres_per_node"));
  }

  /**
   * The {@code job/submit} answer.
   *
   * @throws SlurmException when the answer carries no positive {@code job_id} (found by fuzzing: the record's own
   *     check used to escape the client as an IllegalArgumentException)
   */
  public static SlurmSubmission submission(JsonNode root) {
    long jobId = num(root, "job_id", 0);
    if (jobId <= 0) {
      String body = root.toString();
      throw new SlurmException("slurm job/submit: the answer has no positive job_id: "
          + (body.length() > 200 ? body.substring(0, 200) + "..." : body));
    }
    return new SlurmSubmission(jobId, str(root, "step_id"), str(root, "job_submit_user_msg"));
  }

  /**
   * The {@code POST /job/submit} body. {@code nodes} is sent as a number: the array form the spec shows
   * ({@code [min,max]}) is accepted by 22.05 but gives one node (measured). {@code environment} is always sent:
   * 22.05 rejects a job without it ("environment must be set").
   */
  public static String submitBody(SlurmJobSpec spec) {
    ObjectNode root = MAPPER.createObjectNode();
    ObjectNode job = root.putObject("job");
    job.put("name", spec.name());
    if (!spec.partition().isEmpty()) {
      job.put("partition", spec.partition());
    }
    job.put("nodes", spec.nodes());
    job.put("tasks", spec.tasks());
    job.put("tasks_per_node", spec.tasksPerNode());
    if (spec.cpusPerTask() != null) {
      job.put("cpus_per_task", spec.cpusPerTask().intValue());
    }
    if (spec.gpusPerNode() > 0) {
      job.put("gres", "gpu:" + spec.gpusPerNode());
    }
    if (spec.memoryPerNodeMiB() != null) {
      job.put("memory_per_node", spec.memoryPerNodeMiB().longValue());
    }
    Long minutes = spec.timeLimitMinutes();
    if (minutes != null) {
      job.put("time_limit", minutes.longValue());
    }
    if (!spec.array().isEmpty()) {
      job.put("array", spec.array());
    }
    job.put("current_working_directory", spec.workingDirectory());
    if (!spec.standardOutput().isEmpty()) {
      job.put("standard_output", spec.standardOutput());
    }
    if (!spec.standardError().isEmpty()) {
      job.put("standard_error", spec.standardError());
    }
    ObjectNode env = job.putObject("environment");
    for (Map.Entry<String, String> e : spec.environment().entrySet()) {
      env.put(e.getKey(), e.getValue());
    }
    root.put("script", spec.script());
    return MAPPER.writeValueAsString(root);
  }

  static String str(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() || v.isNull()) {
      return "";
    }
    return v.isString() ? v.stringValue() : v.toString();
  }

  static long num(JsonNode n, String field, long dflt) {
    JsonNode v = n.path(field);
    if (v.isNumber()) {
      return v.longValue();
    }
    if (v.isString()) {
      try {
        return GoIntegers.parseInt(v.stringValue().strip(), 64); // ASCII digits only
      } catch (NumberFormatException e) {
        return dflt;
      }
    }
    return dflt;
  }

  static @Nullable Instant time(JsonNode n, String field) {
    long s = num(n, field, 0);
    return s <= 0 ? null : Instant.ofEpochSecond(s);
  }

  static List<String> strings(JsonNode arr) {
    List<String> out = new ArrayList<>();
    for (JsonNode v : arr.values()) {
      out.add(v.isString() ? v.stringValue() : v.toString());
    }
    return out;
  }
}
