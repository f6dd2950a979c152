package io.fleetkit.store.etcd.internal;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads one record type from its JSON object: each property to the component of that name, a component whose
 * property is missing to its unset value ({@link RecordForm#unset}), then the canonical constructor. A {@code null}
 * is the value of a {@code @Nullable} component and, for any other, means unset as a missing property does.
 * A property that is no component is refused, never dropped: a later write of the object would lose it. A JSON
 * string is read as the record only where an earlier version stored the record so ({@link
 * UnsetValues#earlierScalarForm}). All
 * reflection happens once, in {@link RecordForm}; the deserializers of the components are looked up at the first
 * read. Thread-safe.
 */
final class RecordReader extends ValueDeserializer<Object> {
  private final RecordForm form;
  private volatile ValueDeserializer<Object> @Nullable [] components;

  RecordReader(RecordForm form) {
    this.form = form;
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctx) {
    ValueDeserializer<Object>[] deserializers = components;
    if (deserializers == null) {
      deserializers = resolveComponents(ctx);
    }
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      // a record an earlier version stored as a string (UnsetValues.earlierScalarForm)
      var earlier = UnsetValues.earlierScalarForm(form.type);
      if (earlier != null) {
        try {
          return earlier.apply(p.getValueAsString());
        } catch (RuntimeException e) {
          throw new StoredFormException(p, "is not a valid " + form.type.getSimpleName() + ": " + e.getMessage(), e);
        }
      }
    }
    if (t == JsonToken.START_OBJECT) {
      t = p.nextToken();
    }
    if (t != JsonToken.PROPERTY_NAME && t != JsonToken.END_OBJECT) {
      return ctx.handleUnexpectedToken(form.type, p);
    }
    int n = form.names.length;
    Object[] values = new Object[n];
    boolean[] set = new boolean[n];
    for (; t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
      String name = p.currentName();
      Integer i = form.index.get(name);
      if (i == null) {
        throw withPath(new StoredFormException(p, StoredFormException.UNKNOWN), name);
      }
      if (p.nextToken() == JsonToken.VALUE_NULL) {
        // null is the value of a @Nullable component (kept, for an exact round trip even where the kind's default
        // is not null); for any other component it means "not set", as a missing property does
        if (form.nullable[i]) {
          values[i] = null;
          set[i] = true;
        }
        continue;
      }
      try {
        values[i] = deserializers[i].deserialize(p, ctx);
      } catch (JacksonException e) {
        throw withPath(e, name);
      } catch (RuntimeException e) {
        throw withPath(new StoredFormException(p, "is not valid: " + e.getMessage(), e), name);
      }
      set[i] = true;
    }
    StringBuilder unsetNames = null;
    for (int i = 0; i < n; i++) {
      if (!set[i]) {
        Object u = form.unset[i];
        if (u == UnsetValues.REQUIRED) {
          throw withPath(new StoredFormException(p, "is missing or null, and " + form.type.getSimpleName()
              + " requires it (it has no value when not set)"), form.names[i]);
        }
        values[i] = u;
        (unsetNames == null ? unsetNames = new StringBuilder() : unsetNames.append(", ")).append(form.names[i]);
      }
    }
    if (unsetNames != null && form.dependentDefaults != null) {
      form.dependentDefaults.accept(values, set);
    }
    try {
      return form.newInstance(values);
    } catch (RuntimeException e) {
      throw new StoredFormException(p, "is not a valid " + form.type.getSimpleName() + ": " + e.getMessage()
          + (unsetNames == null ? "" : " (unset, so given their values when not set: " + unsetNames + ")"), e);
    }
  }

  private JacksonException withPath(JacksonException e, String name) {
    return e.prependPath(form.type, name);
  }

  @SuppressWarnings("unchecked")
  private ValueDeserializer<Object>[] resolveComponents(DeserializationContext ctx) {
    ValueDeserializer<Object>[] d = new ValueDeserializer[form.types.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = ctx.findContextualValueDeserializer(ctx.getTypeFactory().constructType(form.types[i]), null);
    }
    components = d;
    return d;
  }

  @Override
  public boolean isCachable() {
    return true;
  }

  @Override
  public String toString() {
    return "RecordReader" + Arrays.toString(form.names);
  }
}
