package io.fleetkit.store.etcd.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.reconcile.LeaderLease;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Objects stored by another FleetKit version: a property missing (stored before the kind had the field) or
 * {@code null} reads as the field not set; a property this version does not know (stored by a newer one) is refused,
 * naming the key, the kind and the property. Over objects of every stored kind: generated ({@link StoredKinds}) and
 * written by hand ({@link Samples}). No etcd needed.
 */
final class ObjectCodecEvolutionTest {
  private static final List<Class<?>> KINDS = StoredKinds.all();
  /** Per kind, an object found once, for the seeds that draw none. */
  private static final java.util.concurrent.ConcurrentHashMap<Class<?>, Object> FOUND =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final ObjectCodec codec = new ObjectCodec();

  // ------------------------------------------------------------------------------------------ the kinds and samples

  @Test
  void storedKinds_includeEveryKindOfCoreApiAndTheLease_eachWithASample() {
    assertThat(KINDS).contains(Pod.class, StatefulSet.class, NodePool.class, Job.class, LeaderLease.class)
        .hasSizeGreaterThanOrEqualTo(38);
    for (Class<?> k : KINDS) {
      assertThat(sample(k, 1, true)).as(k.getSimpleName()).isNotNull();
    }
  }

  // ------------------------------------------------------------------------------------------------- round trips

  @Property(tries = 200)
  void everyKind_roundTripsExactly_andReencodesToTheSameJson(@ForAll("objects") ApiObject<?> o) {
    byte[] json = codec.encode(o);
    Object back = codec.decode(json, o.getClass(), "k");
    assertThat(back).isEqualTo(o);
    // the same JSON (a map's entries may come in another order: Map.copyOf's order is not its content's)
    assertThat(StoredJson.JSON.readTree(codec.encode((ApiObject<?>) back))).isEqualTo(StoredJson.JSON.readTree(json));
  }

  // --------------------------------------------------------------------------------- a property missing or null

  @Property(tries = 500)
  void oneRecordProperty_missingOrNull_readsAsUnsetOrFailsNamingIt(@ForAll("objects") ApiObject<?> o,
      @ForAll @IntRange(min = 0, max = 1_000_000) int pick) {
    List<StoredJson.Property> props = StoredJson.properties(o);
    checkMissingAndNull(o, props.get(pick % props.size()));
  }

  @Test
  void everyRecordProperty_ofASampleOfEveryKind_missingOrNull_readsAsUnsetOrFailsNamingIt() {
    int checked = 0;
    for (Class<?> k : KINDS) {
      ApiObject<?> o = sample(k, 7, true);
      for (StoredJson.Property p : StoredJson.properties(o)) {
        checkMissingAndNull(o, p);
        checked++;
      }
    }
    for (ApiObject<?> o : Samples.all()) {
      for (StoredJson.Property p : StoredJson.properties(o)) {
        checkMissingAndNull(o, p);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(1000);
  }

  /**
   * Without property {@code p}, the object reads as {@code o} with that field unset: every other property is as
   * stored, and the result round-trips; or the read fails with a message naming the key, the kind and the property
   * (required), or the record the kind's rules refuse. With {@code p} null: the same as without it, except that a
   * {@code @Nullable} component reads as null.
   */
  private void checkMissingAndNull(ApiObject<?> o, StoredJson.Property p) {
    String key = "/fleetkit/objects/" + o.getClass().getName() + "/" + o.metadata().namespace() + "/"
        + o.metadata().name();
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(o));
    JsonNode missing = StoredJson.with(stored, p.path(), null);
    JsonNode nulled = StoredJson.with(stored, p.path(), NullNode.getInstance());
    Outcome m = read(missing, o.getClass(), key);
    Outcome n = read(nulled, o.getClass(), key);
    String what = o.kind() + " without " + p.text();
    for (Outcome x : List.of(m, n)) {
      if (x.error != null) {
        assertThat(x.error).as(what).isInstanceOf(FleetKitException.class);
        String msg = x.error.getMessage();
        assertThat(msg).as(what).startsWith("etcd key " + key + ": stored " + o.getClass().getSimpleName() + " ")
            .doesNotContain("Cannot invoke").doesNotContain("because \"");
        if (msg.contains("is missing or null")) {
          assertThat(msg).as(what).contains(" property " + p.text() + " is missing or null, and ");
        } else {
          assertThat(msg).as(what).containsAnyOf("is not a valid ", " with properties ");
        }
      } else {
        ApiObject<?> r = (ApiObject<?>) x.object;
        JsonNode again = StoredJson.JSON.readTree(codec.encode(r));
        assertThat(StoredJson.with(again, p.path(), null)).as(what + ": the other properties").isEqualTo(missing);
        assertThat(codec.decode(codec.encode(r), o.getClass(), key)).as(what).isEqualTo(r);
      }
    }
    if (p.nullable()) {
      if (n.error == null) {
        // null is kept, unless the record's constructor gives a value for null (as it does when the field is unset)
        JsonNode value = StoredJson.at(StoredJson.JSON.readTree(codec.encode((ApiObject<?>) n.object)), p.path());
        if (!NullNode.getInstance().equals(value)) {
          assertThat(n.object).as(what + ": null kept or as unset").isEqualTo(m.object);
        }
      } else {
        assertThat(n.error.getMessage()).as(what).contains("is not a valid ");
      }
    } else if (m.error != null && m.error.getMessage().contains(" with properties ")) {
      // a property of one of a sealed type's records: the record is recognised by its properties, a null one
      // included, so without it the value may be another record or none
      return;
    } else if (m.error == null) {
      assertThat(n.object).as(o.kind() + " with null " + p.text() + " as without it").isEqualTo(m.object);
    } else {
      assertThat(n.error).as(o.kind() + " with null " + p.text() + " as without it").isNotNull();
      assertThat(n.error.getMessage()).isEqualTo(m.error.getMessage());
    }
  }

  private record Outcome(@Nullable Object object, @Nullable RuntimeException error) {}

  private Outcome read(JsonNode json, Class<?> kind, String key) {
    try {
      return new Outcome(codec.decode(StoredJson.JSON.writeValueAsBytes(json), kind, key), null);
    } catch (RuntimeException e) {
      return new Outcome(null, e);
    }
  }

  // ------------------------------------------------------------------------ a property this version does not know

  @Property(tries = 200)
  void aPropertyFromANewerVersion_anywhere_isRefusedNamingKeyKindAndProperty(@ForAll("objects") ApiObject<?> o,
      @ForAll @IntRange(min = 0, max = 1_000_000) int pick) {
    List<StoredJson.RecordAt> records = StoredJson.records(o);
    StoredJson.RecordAt at = records.get(pick % records.size());
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(o));
    ObjectNode target = (ObjectNode) (at.path().isEmpty() ? stored : StoredJson.at(stored, at.path()));
    target.put("addedLater", 1);
    String property = at.text().isEmpty() ? "addedLater" : at.text() + ".addedLater";
    assertThatThrownBy(() -> codec.decode(StoredJson.JSON.writeValueAsBytes(stored), o.getClass(), "/fk/x"))
        .isInstanceOf(FleetKitException.class)
        .hasMessage("etcd key /fk/x: stored " + o.getClass().getSimpleName() + " property " + property
            + " is not known to this FleetKit version (written by a newer one?); the object is not read, so that "
            + "a later write cannot drop it");
  }

  @Test
  void unknownNestedProperty_messageNamesKeyKindAndPath() {
    StatefulSet s = (StatefulSet) Samples.all().get(3);
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(s));
    ((ObjectNode) stored.get("spec").get("template").get("spec").get("containers").get(0)).put("resizePolicy", "x");
    assertThatThrownBy(() -> codec.decode(StoredJson.JSON.writeValueAsBytes(stored), StatefulSet.class,
        "/fleetkit/objects/io.fleetkit.api.apps.StatefulSet/default/db"))
        .isInstanceOf(FleetKitException.class)
        .hasMessageStartingWith("etcd key /fleetkit/objects/io.fleetkit.api.apps.StatefulSet/default/db: stored "
            + "StatefulSet property spec.template.spec.containers[0].resizePolicy is not known to this FleetKit "
            + "version");
  }

  @Test
  void requiredPropertyMissing_messageNamesKeyKindPathAndRecord() {
    Pod p = (Pod) Samples.all().get(0);
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(p));
    ((ObjectNode) stored.get("spec").get("volumes").get(0)).remove("source");
    assertThatThrownBy(() -> codec.decode(StoredJson.JSON.writeValueAsBytes(stored), Pod.class, "/k"))
        .isInstanceOf(FleetKitException.class)
        .hasMessage("etcd key /k: stored Pod property spec.volumes[0].source is missing or null, and Volume "
            + "requires it (it has no value when not set)");
  }

  // --------------------------------------------------------------------------- the fields the kinds gained lately

  @Test
  void gatewayStoredWithCertificateRefsAsNames_readsThemAsSecretsOfItsNamespace() {
    Gateway current = new Gateway(ObjectMeta.of("infra", "edge"), new GatewaySpec("c", List.of(new Listener("https",
        "", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE, List.of(SecretObjectReference.secret("www-cert"),
        SecretObjectReference.secret("api-cert"))))));
    JsonNode older = StoredJson.JSON.readTree(codec.encode(current));
    ObjectNode listener = (ObjectNode) older.get("spec").get("listeners").get(0);
    listener.putArray("certificateRefs").add("www-cert").add("api-cert");

    assertThat(codec.decode(StoredJson.JSON.writeValueAsBytes(older), Gateway.class, "k")).isEqualTo(current);
  }

  @Test
  void certificateRefStoredWithoutKind_isASecret() {
    Gateway current = new Gateway(ObjectMeta.of("infra", "edge"), new GatewaySpec("c", List.of(new Listener("https",
        "", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE, List.of(SecretObjectReference.secret("certs", "www"))))));
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(current));
    ((ObjectNode) stored.get("spec").get("listeners").get(0).get("certificateRefs").get(0)).remove("kind");

    assertThat(codec.decode(StoredJson.JSON.writeValueAsBytes(stored), Gateway.class, "k")).isEqualTo(current);
  }

  @Test
  void statefulSetStoredBeforeRetentionPolicyAndOrdinals_readsWithThemUnset() {
    StatefulSet current = (StatefulSet) Samples.all().get(3);
    assertThat(current.spec().persistentVolumeClaimRetentionPolicy().whenDeleted())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Delete);
    assertThat(current.spec().startOrdinal()).isEqualTo(3);
    JsonNode older = StoredJson.JSON.readTree(codec.encode(current));
    ((ObjectNode) older.get("spec")).remove(List.of("persistentVolumeClaimRetentionPolicy", "ordinals"));

    StatefulSet read = codec.decode(StoredJson.JSON.writeValueAsBytes(older), StatefulSet.class, "k");

    assertThat(read).isEqualTo(current.withSpec(current.spec()
        .withPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN)
        .withOrdinals(StatefulSetOrdinals.DEFAULT)));
    // as the builder gives a set without them
    StatefulSet built = StatefulSet.builder().name("db").matchLabels(Samples.APP).podSpec(Samples.podSpec()).build();
    assertThat(read.spec().persistentVolumeClaimRetentionPolicy())
        .isEqualTo(built.spec().persistentVolumeClaimRetentionPolicy());
    assertThat(read.spec().ordinals()).isEqualTo(built.spec().ordinals());
  }

  @Test
  void nodePoolStoredBeforeAutoscalingOptions_readsWithoutOptions() {
    NodePool current = NodePool.builder().name("a100").nodeLabel("pool", "a100").minSize(1).maxSize(10)
        .startupDelay(Duration.ofMinutes(3))
        .autoscalingOptions(new NodePoolAutoscalingOptions(0.4, null, null, null, null, null)).build();
    JsonNode older = StoredJson.JSON.readTree(codec.encode(current));
    ((ObjectNode) older.get("spec")).remove("autoscalingOptions");

    NodePool read = codec.decode(StoredJson.JSON.writeValueAsBytes(older), NodePool.class, "k");

    assertThat(read.spec().autoscalingOptions()).isEqualTo(NodePoolAutoscalingOptions.NONE);
    assertThat(read.spec().withAutoscalingOptions(current.spec().autoscalingOptions())).isEqualTo(current.spec());
    assertThat(read.metadata()).isEqualTo(current.metadata());
    assertThat(read.status()).isEqualTo(current.status());
  }

  @Test
  void jobWithoutCompletionsAndParallelism_readsAsTheBuilderDefaultsThem_eitherAloneStaysAsStored() {
    Job job = (Job) Samples.all().get(5);
    JsonNode stored = StoredJson.JSON.readTree(codec.encode(job));
    JsonNode neither = stored.deepCopy();
    ((ObjectNode) neither.get("spec")).remove(List.of("completions", "parallelism"));
    Job read = codec.decode(StoredJson.JSON.writeValueAsBytes(neither), Job.class, "k");
    assertThat(read.spec().completions()).isEqualTo(1);
    assertThat(read.spec().parallelism()).isEqualTo(1);

    JsonNode noCompletions = stored.deepCopy();
    ((ObjectNode) noCompletions.get("spec")).remove("completions");
    Job work = codec.decode(StoredJson.JSON.writeValueAsBytes(noCompletions), Job.class, "k");
    assertThat(work.spec().completions()).isNull();
    assertThat(work.spec().parallelism()).isEqualTo(2);
  }

  // ------------------------------------------------------------------------------ the builders are the reference

  /**
   * An object of each kind with a builder, built with only what the kind requires, stored with only those
   * properties: it reads as the builder built it, so every field the builder defaults reads, when missing, as the
   * builder's default.
   */
  @Test
  void builtWithOnlyTheRequiredFields_storedWithOnlyThose_readsAsBuilt() {
    PodSpec pod = PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build();
    List<String> workload = List.of("metadata.name", "metadata.namespace", "spec.selector.matchLabels",
        "spec.template.metadata.labels", "spec.template.spec.containers[0].name",
        "spec.template.spec.containers[0].image");
    List<String> problems = new ArrayList<>();
    checkBuilt(problems, Pod.builder().name("p").namespace("default").container("app", "web:1", ResourceList.EMPTY)
        .build(), List.of("metadata.name", "metadata.namespace", "spec.containers[0].name", "spec.containers[0].image"));
    checkBuilt(problems, Deployment.builder().name("d").matchLabels(Samples.APP).podSpec(pod).build(), workload);
    checkBuilt(problems, ReplicaSet.builder().name("d").matchLabels(Samples.APP).podSpec(pod).build(), workload);
    checkBuilt(problems, StatefulSet.builder().name("d").matchLabels(Samples.APP).podSpec(pod).build(), workload);
    checkBuilt(problems, DaemonSet.builder().name("d").matchLabels(Samples.APP).podSpec(pod).build(), workload);
    checkBuilt(problems, io.fleetkit.api.core.ReplicationController.builder().name("d").template(Samples.APP, pod)
        .build(), List.of("metadata.name", "metadata.namespace", "metadata.labels", "spec.selector",
        "spec.template.metadata.labels", "spec.template.spec.containers[0].name",
        "spec.template.spec.containers[0].image"));
    PodSpec once = PodSpec.builder().restartPolicy(RestartPolicy.Never).container("app", "web:1", ResourceList.EMPTY)
        .build();
    List<String> job = List.of("metadata.name", "metadata.namespace", "spec.selector",
        "spec.template.metadata.labels", "spec.template.spec.containers[0].name",
        "spec.template.spec.containers[0].image", "spec.template.spec.restartPolicy");
    checkBuilt(problems, Job.builder().name("d").namespace("default").podSpec(once).build(), job);
    checkBuilt(problems, CronJob.builder().name("nightly").schedule("0 3 * * *")
        .jobSpec(Job.builder().name("d").podSpec(once).build().spec()).build(),
        List.of("metadata.name", "metadata.namespace", "spec.schedule", "spec.jobTemplate.spec.selector",
            "spec.jobTemplate.spec.template.metadata.labels", "spec.jobTemplate.spec.template.spec.containers[0].name",
            "spec.jobTemplate.spec.template.spec.containers[0].image",
            "spec.jobTemplate.spec.template.spec.restartPolicy"));
    checkBuilt(problems, Node.builder().name("n").build(), List.of("metadata.name"));
    checkBuilt(problems, NodePool.builder().name("pool").build(), List.of("metadata.name"));
    checkBuilt(problems, PriorityClass.builder().name("high").build(), List.of("metadata.name"));
    checkBuilt(problems, PodGroup.builder().name("g").build(), List.of("metadata.name", "metadata.namespace"));
    assertThat(problems).isEmpty();
  }

  private void checkBuilt(List<String> problems, ApiObject<?> o, List<String> keep) {
    JsonNode tree = StoredJson.JSON.readTree(codec.encode(o));
    strip(tree, "", keep);
    try {
      Object back = codec.decode(StoredJson.JSON.writeValueAsBytes(tree), o.getClass(), "k");
      if (!back.equals(o)) {
        List<String> d = new ArrayList<>();
        diff(StoredJson.JSON.readTree(codec.encode(o)), StoredJson.JSON.readTree(codec.encode((ApiObject<?>) back)),
            "", d);
        problems.add(o.kind() + ": " + d);
      }
    } catch (RuntimeException e) {
      problems.add(o.kind() + ": " + e.getMessage() + " from " + tree);
    }
  }

  private static void diff(JsonNode a, JsonNode b, String path, List<String> out) {
    if (a.isObject() && b.isObject()) {
      for (var e : a.properties()) {
        diff(e.getValue(), b.path(e.getKey()), path + "." + e.getKey(), out);
      }
    } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        diff(a.get(i), b.get(i), path + "[" + i + "]", out);
      }
    } else if (!a.equals(b)) {
      out.add(path + ": built " + a + ", read " + b);
    }
  }

  /** Removes every property that is neither in {@code keep}, under one of them, nor above one of them. */
  private static void strip(JsonNode n, String path, List<String> keep) {
    if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        strip(n.get(i), path + "[" + i + "]", keep);
      }
      return;
    }
    if (!n.isObject()) {
      return;
    }
    for (String name : new ArrayList<>(n.propertyNames())) {
      String p = path.isEmpty() ? name : path + "." + name;
      boolean kept = keep.stream().anyMatch(k -> k.equals(p) || p.startsWith(k + ".") || p.startsWith(k + "[")
          || k.startsWith(p + ".") || k.startsWith(p + "["));
      if (!kept) {
        ((ObjectNode) n).remove(name);
      } else if (keep.stream().noneMatch(k -> k.equals(p))) {
        strip(n.get(name), p, keep);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------- the encoding

  @Test
  void encoding_isTheRecordComponentsInOrder_unchanged() {
    LeaderLease lease = new LeaderLease(ObjectMeta.of("kube-system", "sched"),
        new LeaderLease.Spec("a", Duration.ofSeconds(15), null, null, 2));
    assertThat(new String(codec.encode(lease), StandardCharsets.UTF_8)).isEqualTo("{\"metadata\":{\"name\":"
        + "\"sched\",\"namespace\":\"kube-system\",\"uid\":\"\",\"resourceVersion\":\"\",\"generation\":0,\"labels\":{},"
        + "\"annotations\":{},\"ownerReferences\":[],\"finalizers\":[],\"creationTimestamp\":null,"
        + "\"deletionTimestamp\":null,\"deletionGracePeriodSeconds\":null},\"spec\":{\"holderIdentity\":\"a\",\"leaseDuration\":\"PT15S\","
        + "\"acquireTime\":null,\"renewTime\":null,\"leaseTransitions\":2}}");
  }

  // ------------------------------------------------------------------------------------------------ generators

  @Provide
  Arbitrary<ApiObject<?>> objects() {
    Arbitrary<ApiObject<?>> generated = Arbitraries.of(KINDS)
        .flatMap(k -> Arbitraries.longs().flatMap(seed -> Arbitraries.of(true, false)
            .map(rich -> sample(k, seed, rich))));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, generated), net.jqwik.api.Tuple.of(1, Arbitraries.of(Samples.all())));
  }

  /** A generated object of {@code kind}, else a plain one, else the hand-written sample of the kind. */
  private static ApiObject<?> sample(Class<?> kind, long seed, boolean rich) {
    Object o = StoredKinds.sample(kind, new Random(seed), rich);
    for (int i = 1; o == null && i < 4; i++) {
      o = StoredKinds.sample(kind, new Random(seed + i), rich);
    }
    if (o == null) {
      o = FOUND.computeIfAbsent(kind, k -> {
        for (long s = 0; s < 64; s++) {
          Object f = StoredKinds.sample(k, new Random(s), s % 2 == 0);
          if (f != null) {
            return f;
          }
        }
        return Samples.all().stream().filter(k::isInstance).findFirst().orElse(null);
      });
    }
    if (o == null) {
      throw new AssertionError(kind.getName() + ": no object generated and no sample in Samples");
    }
    return (ApiObject<?>) o;
  }
}
