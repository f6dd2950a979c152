package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The pod update rule as an invariant: an update that changes only what {@code ValidatePodUpdate} allows
 * (container images, a lower or first activeDeadlineSeconds, added tolerations, an existing NoExecute toleration's
 * seconds, labels and annotations) is accepted; adding any one change of an immutable field makes the update
 * refused, naming that field's path.
 */
final class PodUpdateRulesPropertyTest {

  /** An immutable field, its path, and how to change it. */
  enum Immutable {
    NODE_SELECTOR("spec.nodeSelector"),
    PRIORITY_CLASS("spec.priorityClassName"),
    HOSTNAME("spec.hostname"),
    SUBDOMAIN("spec.subdomain"),
    RESTART_POLICY("spec.restartPolicy"),
    SCHEDULER("spec.schedulerName"),
    NODE_NAME("spec.nodeName"),
    GRACE("spec.terminationGracePeriodSeconds"),
    RESOURCES("spec.containers"),
    DEADLINE_RAISED("spec.activeDeadlineSeconds"),
    TOLERATION_REMOVED("spec.tolerations");

    final String path;

    Immutable(String path) {
      this.path = path;
    }

    PodSpec.Builder apply(PodSpec old, PodSpec.Builder b, int n) {
      return switch (this) {
        case NODE_SELECTOR -> b.nodeSelector("zone", "z" + n);
        case PRIORITY_CLASS -> b.priorityClassName("class-" + n);
        case HOSTNAME -> b.hostname("host-" + n);
        case SUBDOMAIN -> b.subdomain("sub-" + n);
        case RESTART_POLICY -> b.restartPolicy(RestartPolicy.OnFailure);
        case SCHEDULER -> b.schedulerName("scheduler-" + n);
        case NODE_NAME -> b.nodeName("node-" + n);
        case GRACE -> b.terminationGracePeriodSeconds(31 + n);
        case RESOURCES -> b.containers(List.of(new Container("c", "img", ResourceRequirements.ofRequests(
            ResourceList.ofCpuMemory(1 + n, 1 << 20)), List.of(), List.of(), null)));
        case DEADLINE_RAISED -> b.activeDeadlineSeconds(OLD_DEADLINE + 1 + n);
        case TOLERATION_REMOVED -> b.tolerations(List.of());
      };
    }
  }

  private static final long OLD_DEADLINE = 100;
  private static final Toleration NO_EXECUTE = new Toleration("node.kubernetes.io/unreachable",
      TolerationOperator.Exists, "", TaintEffect.NoExecute, 300L);

  private static Pod old() {
    return Pod.builder().namespace("ns").name("p").restartPolicy(RestartPolicy.Always)
        .container(Container.of("c", "img", ResourceList.EMPTY)).toleration(NO_EXECUTE)
        .activeDeadlineSeconds(OLD_DEADLINE).build();
  }

  /** {@code old} with some of the allowed changes. */
  private static PodSpec.Builder allowed(PodSpec old, boolean image, int imageTag, boolean deadline,
      long newDeadline, boolean addToleration, boolean seconds, long newSeconds) {
    PodSpec.Builder b = old.toBuilder();
    if (image) {
      b.containers(List.of(new Container("c", "img:" + imageTag, ResourceRequirements.NONE, List.of(), List.of(),
          null)));
    }
    if (deadline) {
      b.activeDeadlineSeconds(newDeadline);
    }
    List<Toleration> tolerations = new ArrayList<>();
    tolerations.add(seconds ? new Toleration(NO_EXECUTE.key(), NO_EXECUTE.operator(), NO_EXECUTE.value(),
        NO_EXECUTE.effect(), newSeconds) : NO_EXECUTE);
    if (addToleration) {
      tolerations.add(Toleration.exists("gpu", TaintEffect.NoSchedule));
    }
    return b.tolerations(tolerations);
  }

  @Property(tries = 300)
  void onlyAllowedChanges_accepted(@ForAll boolean image, @ForAll @IntRange(min = 0, max = 99) int tag,
      @ForAll boolean deadline, @ForAll @LongRange(min = 1, max = OLD_DEADLINE) long newDeadline,
      @ForAll boolean addToleration, @ForAll boolean seconds, @ForAll @LongRange(min = 0, max = 9999) long newSeconds,
      @ForAll boolean label) {
    Pod old = old();
    Pod updated = old.withSpec(allowed(old.spec(), image, tag, deadline, newDeadline, addToleration, seconds,
        newSeconds).build());
    if (label) {
      updated = updated.withMetadata(updated.metadata().toBuilder().label("app", "x").annotation("a", "b").build());
    }
    Pod u = updated;
    assertThatCode(() -> UpdateChecks.update(old, u, false)).doesNotThrowAnyException();
  }

  @Property(tries = 500)
  void anyImmutableChange_refusedNamingItsPath(@ForAll Immutable change, @ForAll @IntRange(min = 0, max = 99) int n,
      @ForAll boolean image, @ForAll @IntRange(min = 0, max = 99) int tag, @ForAll boolean deadline,
      @ForAll @LongRange(min = 1, max = OLD_DEADLINE) long newDeadline, @ForAll boolean addToleration) {
    Pod old = old();
    PodSpec.Builder b = allowed(old.spec(), image && change != Immutable.RESOURCES, tag,
        deadline && change != Immutable.DEADLINE_RAISED, newDeadline, addToleration, false, 0);
    Pod updated = old.withSpec(change.apply(old.spec(), b, n).build());

    Throwable thrown = catchThrowable(() -> UpdateChecks.update(old, updated, false));

    assertThat(thrown).isInstanceOf(ValidationException.class);
    assertThat(thrown.getMessage()).startsWith("Pod ns/p: ").contains(change.path);
  }
}
