package io.fleetkit.adapter.slurm.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fleetkit.adapter.slurm.SlurmException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Fuzzes the slurmrestd JSON decoders: any body is either not JSON (Jackson's exception, which the client turns into
 * a {@link SlurmException}) or decodes into nodes, partitions, jobs, errors and a submission, or fails with a
 * {@link SlurmException}; never another exception, never a hang.
 */
final class SlurmJsonFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void decode_anyBody_valuesOrDocumentedError(byte[] data) {
    JsonNode root;
    try {
      root = SlurmJson.parse(new String(data, StandardCharsets.UTF_8));
    } catch (JacksonException e) {
      return;
    }
    SlurmJson.errors(root);
    SlurmJson.pings(root);
    SlurmJson.nodes(root);
    SlurmJson.partitions(root);
    SlurmJson.jobs(root);
    try {
      SlurmJson.submission(root);
    } catch (SlurmException e) {
      // a documented failure: no job id in the answer
    }
  }
}
