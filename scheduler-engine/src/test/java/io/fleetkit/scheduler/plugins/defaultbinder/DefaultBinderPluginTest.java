package io.fleetkit.scheduler.plugins.defaultbinder;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes at commit 1892e4deb967a2b39cfc2fea87a8bd49274449ef,
 * {@code pkg/scheduler/framework/plugins/defaultbinder/default_binder_test.go} TestDefaultBinder (2 of 2 cases): the
 * plugin binds through the handle's binder (upstream: a Binding posted through the handle's client), and a binding
 * error becomes an error status.
 */
final class DefaultBinderPluginTest {
  private static final String TEST_NODE = "foohost.kubernetes.mydomain.com";
  private static final Pod TEST_POD = Pod.builder().namespace("ns").name("foo").container("app", "pause",
      io.fleetkit.api.resource.ResourceList.ofCpuMemory(100, 1024)).build();

  /** A handle whose binder is {@code binder} (null: the interface's refusing default); nothing else is used. */
  private static FrameworkHandle handle(@Nullable Binder binder) {
    return new FrameworkHandle() {
      @Override public Clock clock() { throw new UnsupportedOperationException(); }
      @Override public Snapshot snapshot() { throw new UnsupportedOperationException(); }
      @Override public WaitingPods waitingPods() { throw new UnsupportedOperationException(); }
      @Override public <T> List<T> list(Class<T> kind) { throw new UnsupportedOperationException(); }
      @Override public Status runFilterPlugins(CycleState s, PodInfo p, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionAddPod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionRemovePod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Map<String, Object> pluginArgs(String pluginName) { return Map.of(); }
      @Override public Binder binder() { return binder != null ? binder : FrameworkHandle.super.binder(); }
    };
  }

  @Test
  void bind_successful_theBinderGetsThePodAndTheNode() {
    // upstream case "successful": the Binding names ns/foo and targets the node
    List<String> got = new ArrayList<>();
    BindPlugin plugin = (BindPlugin) DefaultBinderPlugin.FACTORY.create(handle((pod, node) -> {
      got.add(pod.metadata().key() + "->" + node);
      return Status.success();
    }));
    Status s = plugin.bind(new SimpleCycleState(), PodInfos.of(TEST_POD), TEST_NODE);
    assertThat(s.isSuccess()).isTrue();
    assertThat(s.plugin()).isEqualTo(DefaultBinderPlugin.NAME);
    assertThat(got).containsExactly("ns/foo->" + TEST_NODE);
    assertThat(plugin.name()).isEqualTo("DefaultBinder");
  }

  @Test
  void bind_bindingError_errorStatusAndNoBinding() {
    // upstream case "binding error": the client's error becomes the status (here the binder's exception)
    BindPlugin plugin = (BindPlugin) DefaultBinderPlugin.FACTORY.create(handle((pod, node) -> {
      throw new IllegalStateException("binding error");
    }));
    Status s = plugin.bind(new SimpleCycleState(), PodInfos.of(TEST_POD), TEST_NODE);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("binder failed: java.lang.IllegalStateException: binding error");
  }

  @Test
  void bind_binderRejects_itsStatusAsIs() {
    Status rejected = Status.error("pod ns/foo is gone");
    BindPlugin plugin = (BindPlugin) DefaultBinderPlugin.FACTORY.create(handle((pod, node) -> rejected));
    assertThat(plugin.bind(new SimpleCycleState(), PodInfos.of(TEST_POD), TEST_NODE)).isSameAs(rejected);
  }

  @Test
  void bind_handleWithoutBinder_refusesWithAClearStatus() {
    BindPlugin plugin = (BindPlugin) DefaultBinderPlugin.FACTORY.create(handle(null));
    Status s = plugin.bind(new SimpleCycleState(), PodInfos.of(TEST_POD), TEST_NODE);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("cannot bind pod ns/foo to node " + TEST_NODE
        + ": this framework handle has no binder (a simulation or a plugin harness)");
  }

  @Test
  void bind_assumedPodInfo_theBinderGetsThePendingPodObject() {
    List<Pod> got = new ArrayList<>();
    BindPlugin plugin = (BindPlugin) DefaultBinderPlugin.FACTORY.create(handle((pod, node) -> {
      got.add(pod);
      return Status.success();
    }));
    Pod bound = TEST_POD.withNodeName(TEST_NODE);
    PodInfo assumed = new PodInfo() {
      @Override public Pod pod() { throw new AssertionError("the bound copy must not be read"); }
      @Override public Pod pendingPod() { return TEST_POD; }
      @Override public String key() { return "ns/foo"; }
      @Override public io.fleetkit.api.resource.ResourceList requests() { return TEST_POD.effectiveRequests(); }
      @Override public long nonZeroMilliCpu() { return 100; }
      @Override public long nonZeroMemory() { return 1024; }
      @Override public int priority() { return 0; }
    };
    assertThat(plugin.bind(new SimpleCycleState(), assumed, TEST_NODE).isSuccess()).isTrue();
    assertThat(got).hasSize(1);
    assertThat(got.get(0)).isSameAs(TEST_POD).isNotEqualTo(bound);
  }
}
