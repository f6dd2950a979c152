package io.fleetkit.api.admission;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An ordered list of admission plugins, run by the store on create, update and delete: first every
 * {@link MutatingAdmissionPlugin} in order, each seeing the changes of those before it, then every
 * {@link ValidatingAdmissionPlugin} in order. The first denial stops the chain and is thrown as an
 * {@link AdmissionDeniedException}; the undo actions of validating plugins that had already allowed are run first,
 * newest first. Put plugins with side effects (ResourceQuota charges usage) last, as Kubernetes does.
 *
 * <p>Immutable and thread-safe; the plugins must be thread-safe too, since the store calls them concurrently.
 */
public final class AdmissionChain {
  private static final AdmissionChain EMPTY = new AdmissionChain(List.of());

  private final List<AdmissionPlugin> plugins;
  private final MutatingAdmissionPlugin[] mutating;
  private final ValidatingAdmissionPlugin[] validating;

  private AdmissionChain(List<AdmissionPlugin> plugins) {
    this.plugins = List.copyOf(plugins);
    HashSet<String> names = new HashSet<>();
    List<MutatingAdmissionPlugin> m = new ArrayList<>();
    List<ValidatingAdmissionPlugin> v = new ArrayList<>();
    for (AdmissionPlugin p : this.plugins) {
      Objects.requireNonNull(p.name(), "plugin name");
      if (!names.add(p.name())) {
        throw new IllegalArgumentException("admission plugin " + p.name() + " is in the chain twice");
      }
      if (!(p instanceof MutatingAdmissionPlugin) && !(p instanceof ValidatingAdmissionPlugin)) {
        throw new IllegalArgumentException("admission plugin " + p.name()
            + " must implement MutatingAdmissionPlugin or ValidatingAdmissionPlugin");
      }
      if (p instanceof MutatingAdmissionPlugin mp) {
        m.add(mp);
      }
      if (p instanceof ValidatingAdmissionPlugin vp) {
        v.add(vp);
      }
    }
    mutating = m.toArray(new MutatingAdmissionPlugin[0]);
    validating = v.toArray(new ValidatingAdmissionPlugin[0]);
  }

  /** The chain with no plugins: admits everything unchanged. */
  public static AdmissionChain empty() {
    return EMPTY;
  }

  /**
   * A chain of {@code plugins} in this order.
   *
   * @throws IllegalArgumentException if two plugins share a name, or a plugin is neither mutating nor validating
   */
  public static AdmissionChain of(AdmissionPlugin... plugins) {
    return plugins.length == 0 ? EMPTY : new AdmissionChain(List.of(plugins));
  }

  /** See {@link #of(AdmissionPlugin...)}. */
  public static AdmissionChain of(List<? extends AdmissionPlugin> plugins) {
    return plugins.isEmpty() ? EMPTY : new AdmissionChain(List.copyOf(plugins));
  }

  /** The plugins, in chain order. */
  public List<AdmissionPlugin> plugins() {
    return plugins;
  }

  public boolean isEmpty() {
    return plugins.isEmpty();
  }

  /**
   * Runs the chain on {@code operation} of {@code object}.
   *
   * @param oldObject the stored object for {@code UPDATE}, else {@code null}
   * @return the admitted object (possibly changed by mutating plugins) and the undo actions to run if the write fails
   * @throws AdmissionDeniedException if a plugin denies
   * @throws IllegalStateException if a mutating plugin returns an object of another kind, namespace or name
   */
  public <T extends ApiObject<T>> Admitted<T> admit(AdmissionOperation operation, T object, @Nullable T oldObject,
      ObjectStore store) {
    return admit(operation, object, oldObject, store, false);
  }

  /**
   * What {@link #admit} would decide, without its side effects: every plugin sees a request marked
   * {@link AdmissionRequest#dryRun()} and decides as usual, but makes no lasting change (ResourceQuota checks the
   * limits and charges nothing), as the Kubernetes API server admits a {@code dryRun} request. The object returned
   * carries the mutating plugins' changes; nothing is written.
   *
   * @throws AdmissionDeniedException if a plugin denies
   */
  public <T extends ApiObject<T>> T admitDryRun(AdmissionOperation operation, T object, @Nullable T oldObject,
      ObjectStore store) {
    Admitted<T> a = admit(operation, object, oldObject, store, true);
    a.rollback(); // a plugin that made a side effect anyway has it reversed
    return a.object();
  }

  private <T extends ApiObject<T>> Admitted<T> admit(AdmissionOperation operation, T object, @Nullable T oldObject,
      ObjectStore store, boolean dryRun) {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(store, "store");
    if (plugins.isEmpty()) {
      return new Admitted<>(object, List.of());
    }
    AdmissionRequest request = new AdmissionRequest(operation, object, oldObject, dryRun);
    T current = object;
    for (MutatingAdmissionPlugin p : mutating) {
      AdmissionVerdict v = Objects.requireNonNull(p.mutate(request, store), () -> p.name() + " returned null");
      if (!v.allowed()) {
        throw denied(p, current, v);
      }
      ApiObject<?> changed = v.object();
      if (changed != null && changed != current) {
        current = sameObject(p, current, changed);
        request = request.withObject(current);
      }
    }
    List<Runnable> undo = new ArrayList<>(2);
    for (ValidatingAdmissionPlugin p : validating) {
      AdmissionVerdict v;
      try {
        v = Objects.requireNonNull(p.validate(request, store), () -> p.name() + " returned null");
      } catch (RuntimeException e) {
        undoAll(undo);
        throw e;
      }
      if (!v.allowed()) {
        undoAll(undo);
        throw denied(p, current, v);
      }
      if (v.object() != null) {
        undoAll(undo);
        throw new IllegalStateException("validating admission plugin " + p.name() + " tried to change "
            + current.describe() + "; only mutating plugins may");
      }
      if (v.undo() != null) {
        undo.add(v.undo());
      }
    }
    return new Admitted<>(current, undo);
  }

  private static <T extends ApiObject<T>> T sameObject(AdmissionPlugin p, T current, ApiObject<?> changed) {
    if (changed.getClass() != current.getClass()
        || !changed.metadata().namespace().equals(current.metadata().namespace())
        || !changed.metadata().name().equals(current.metadata().name())) {
      throw new IllegalStateException("mutating admission plugin " + p.name() + " replaced " + current.describe()
          + " by " + changed.describe() + "; it may change an object, not swap it for another");
    }
    @SuppressWarnings("unchecked")
    T typed = (T) changed;
    return typed;
  }

  private static AdmissionDeniedException denied(AdmissionPlugin p, ApiObject<?> object, AdmissionVerdict v) {
    return new AdmissionDeniedException(p.name(), object.describe(), Objects.requireNonNull(v.field()),
        Objects.requireNonNull(v.rule()));
  }

  static void undoAll(List<Runnable> undo) {
    for (int i = undo.size() - 1; i >= 0; i--) {
      undo.get(i).run();
    }
  }

  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    for (AdmissionPlugin p : plugins) {
      names.add(p.name());
    }
    return "AdmissionChain" + names;
  }

  /**
   * The outcome of an admitted request: the object to store, and what to undo if storing it fails.
   *
   * @param <T> the kind
   */
  public static final class Admitted<T> {
    private final T object;
    private final List<Runnable> undo;

    Admitted(T object, List<Runnable> undo) {
      this.object = object;
      this.undo = undo;
    }

    /** The object to store. */
    public T object() {
      return object;
    }

    /** Reverses the side effects of the plugins (newest first); call once, when the write did not happen. */
    public void rollback() {
      undoAll(undo);
    }
  }
}
