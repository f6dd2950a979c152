package io.fleetkit.scheduler.dra;

import io.fleetkit.api.resource.dra.AllocationResult;
import java.util.List;
import java.util.Objects;

/**
 * What {@link StructuredAllocator#allocate} found: an allocation for every claim, no allocation on this node (an
 * expected outcome, with a reason a user can act on), or an error (bad input that no node can satisfy, e.g. an
 * unknown device class, or a selector failing at runtime), mirroring Kubernetes' result/nil/error triple.
 */
public sealed interface AllocationOutcome {

  /** Every claim allocated: one result per claim, in the order the claims were given. */
  record Allocated(List<AllocationResult> results) implements AllocationOutcome {
    public Allocated {
      results = List.copyOf(results);
    }
  }

  /** The claims cannot all be allocated on this node. */
  record Unsatisfiable(String reason) implements AllocationOutcome {
    public Unsatisfiable {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Allocation could not be attempted or was aborted; the message names the claim, request or pool. */
  record Failed(String error) implements AllocationOutcome {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }
}
