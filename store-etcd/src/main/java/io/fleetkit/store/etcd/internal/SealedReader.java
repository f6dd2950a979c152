package io.fleetkit.store.etcd.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads a value of a sealed interface whose permitted types are records (a volume's source, a probe's handler, a
 * canary step): the stored JSON is the record's components, without a type name, so the record is the one whose
 * components are exactly the JSON's properties, or else the only one whose components include them all (a
 * property it gained after the object was stored is missing). None, or more than one, is an error naming the
 * candidates; properties that include all of one record's and more name the first property that record does not
 * know, as for any record. The records and their component names are found once. Thread-safe.
 */
final class SealedReader extends ValueDeserializer<Object> {
  private record Candidate(Class<?> type, Set<String> names) {}

  private final Class<?> sealed;
  private final List<Candidate> candidates = new ArrayList<>();

  SealedReader(Class<?> sealed) {
    this.sealed = sealed;
    collect(sealed);
  }

  private void collect(Class<?> c) {
    for (Class<?> s : c.getPermittedSubclasses()) {
      if (s.isRecord()) {
        candidates.add(new Candidate(s, Set.of(RecordForm.of(s).names)));
      } else if (s.isSealed()) {
        collect(s);
      }
    }
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctx) {
    JsonNode node = ctx.readTree(p);
    if (!node.isObject()) {
      return ctx.handleUnexpectedToken(sealed, p);
    }
    Set<String> present = new HashSet<>(node.propertyNames());
    Candidate exact = null;
    List<Candidate> including = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.names.equals(present)) {
        exact = c;
      }
      if (c.names.containsAll(present)) {
        including.add(c);
      }
    }
    Candidate chosen = exact != null ? exact : including.size() == 1 ? including.get(0) : null;
    if (chosen == null && including.isEmpty()) {
      // the record with the most of the properties, if one has more than any other, names what it does not know
      Candidate best = null;
      int most = 0;
      boolean tie = false;
      for (Candidate c : candidates) {
        if (present.containsAll(c.names)) {
          if (c.names.size() > most) {
            best = c;
            most = c.names.size();
            tie = false;
          } else if (c.names.size() == most) {
            tie = true;
          }
        }
      }
      if (best != null && !tie) {
        TreeSet<String> unknown = new TreeSet<>(present);
        unknown.removeAll(best.names);
        throw (StoredFormException) new StoredFormException(p, StoredFormException.UNKNOWN)
            .prependPath(best.type, unknown.first());
      }
    }
    if (chosen == null) {
      throw new StoredFormException(p, "with properties " + new TreeSet<>(present) + " is "
          + (including.isEmpty() ? "none of " + names(candidates) + " known to this FleetKit version"
              : "ambiguous: it could be any of " + names(including)));
    }
    return ctx.readTreeAsValue(node, chosen.type);
  }

  private String names(List<Candidate> cs) {
    List<String> l = new ArrayList<>();
    for (Candidate c : cs) {
      l.add(sealed.getSimpleName() + "." + c.type.getSimpleName() + c.names);
    }
    return l.toString();
  }

  @Override
  public boolean isCachable() {
    return true;
  }
}
