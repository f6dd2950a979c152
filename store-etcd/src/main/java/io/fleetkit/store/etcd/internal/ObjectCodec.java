package io.fleetkit.store.etcd.internal;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.deser.Deserializers;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * Turns stored objects into the bytes kept in etcd and back. FleetKit's kinds are immutable records, so the codec
 * writes each record's components (its fields) as JSON and reads them back through the canonical constructor, which
 * validates as it does for any caller. Derived accessors ({@code isX()}, {@code getX()}) are not written. The
 * value classes that are not records have their Kubernetes text forms: a {@link Quantity} is its canonical string
 * ({@code "1500m"}), a {@link ResourceList} a map of names to quantities, {@link Bytes} (a Secret's {@code data}, a
 * ConfigMap's {@code binaryData}) base64 as in a manifest.
 *
 * <p>Reading follows the Kubernetes API server's rule for objects stored by another version. A property missing
 * (stored before the kind had the field) is the field not set ({@link UnsetValues}: the kind's default, else
 * {@code null}, empty or zero, else required); a {@code null} is the same, except for a {@code @Nullable} component,
 * which is {@code null}. A property this version does not know (stored by a newer one) is refused, never dropped,
 * since a later write would lose it. A value of a sealed interface of records (a volume's source) has no type name:
 * its record is recognised by its properties ({@link SealedReader}). Errors name the etcd key, the kind and the
 * property's path. Records are read by {@link RecordReader}, from a {@link RecordForm} found once per type: a read
 * does no reflection.
 *
 * <p>Round trips are exact: {@code decode(encode(o), kind).equals(o)} for every object of a FleetKit kind, which the
 * store relies on to tell a no-op update from a change. Thread-safe.
 */
public final class ObjectCodec {
  private static final TypeReference<Map<String, Quantity>> QUANTITIES = new TypeReference<>() {};

  private final JsonMapper mapper;

  public ObjectCodec() {
    SimpleModule values = new SimpleModule("fleetkit-values");
    values.addSerializer(Quantity.class, new ValueSerializer<Quantity>() {
      @Override
      public void serialize(Quantity q, JsonGenerator gen, SerializationContext ctx) {
        gen.writeString(q.toString());
      }
    });
    values.addDeserializer(Quantity.class, new ValueDeserializer<Quantity>() {
      @Override
      public Quantity deserialize(JsonParser p, DeserializationContext ctx) {
        return Quantity.parse(p.getValueAsString());
      }
    });
    values.addSerializer(ResourceList.class, new ValueSerializer<ResourceList>() {
      @Override
      public void serialize(ResourceList r, JsonGenerator gen, SerializationContext ctx) {
        gen.writeStartObject();
        for (Map.Entry<String, Quantity> e : r.asMap().entrySet()) {
          gen.writeStringProperty(e.getKey(), e.getValue().toString());
        }
        gen.writeEndObject();
      }
    });
    values.addDeserializer(ResourceList.class, new ValueDeserializer<ResourceList>() {
      @Override
      public ResourceList deserialize(JsonParser p, DeserializationContext ctx) {
        Map<String, Quantity> m = ctx.readValue(p, ctx.getTypeFactory().constructType(QUANTITIES));
        return ResourceList.of(m);
      }
    });
    values.addSerializer(Bytes.class, new ValueSerializer<Bytes>() {
      @Override
      public void serialize(Bytes b, JsonGenerator gen, SerializationContext ctx) {
        gen.writeString(b.base64());
      }
    });
    values.addDeserializer(Bytes.class, new ValueDeserializer<Bytes>() {
      @Override
      public Bytes deserialize(JsonParser p, DeserializationContext ctx) {
        return Bytes.ofBase64(p.getValueAsString());
      }
    });
    mapper = JsonMapper.builder()
        .changeDefaultVisibility(v -> v
            .withVisibility(PropertyAccessor.ALL, Visibility.NONE)
            .withVisibility(PropertyAccessor.FIELD, Visibility.ANY)
            .withVisibility(PropertyAccessor.CREATOR, Visibility.ANY))
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .addModule(values)
        .addModule(new SimpleModule("fleetkit-records") {
          @Override
          public void setupModule(SetupContext context) {
            super.setupModule(context);
            context.addDeserializers(new RecordDeserializers());
          }
        })
        .build();
  }

  /** The JSON form of {@code object}. */
  public byte[] encode(ApiObject<?> object) {
    try {
      return mapper.writeValueAsBytes(object);
    } catch (JacksonException e) {
      throw new FleetKitException(object.describe() + ": cannot be stored in etcd: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The object {@code bytes} hold. A property the JSON lacks, or holds as {@code null}, is the component's value when
   * not set ({@link UnsetValues}), so that objects stored by an older FleetKit, before a kind gained a field, read as
   * objects without that field; a property this version does not know is refused.
   *
   * @param key the etcd key the bytes came from, named in the error
   * @throws FleetKitException if the bytes are not an object of {@code kind}: a property this version does not know
   *     (written by a newer version of the kind), a required one missing, values the kind refuses, or not JSON of
   *     the kind's form; the message names the key, the kind and the property
   */
  public <T> T decode(byte[] bytes, Class<T> kind, String key) {
    try {
      return mapper.readValue(bytes, kind);
    } catch (StoredFormException e) {
      String path = path(e);
      throw new FleetKitException("etcd key " + key + ": stored " + kind.getSimpleName()
          + (path.isEmpty() ? " " : " property " + path + " ") + e.problem, e);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new FleetKitException("etcd key " + key + ": not a stored " + kind.getSimpleName() + ": "
          + e.getMessage(), e);
    }
  }

  /** The property path of {@code e}: {@code spec.containers[0].name}, {@code metadata.labels[app]}. */
  private static String path(JacksonException e) {
    StringBuilder b = new StringBuilder();
    for (JacksonException.Reference r : e.getPath()) {
      if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      } else if (r.getPropertyName() != null && r.from() instanceof Class<?>) {
        b.append(b.isEmpty() ? "" : ".").append(r.getPropertyName());
      } else if (r.getPropertyName() != null) {
        b.append('[').append(r.getPropertyName()).append(']');
      }
    }
    return b.toString();
  }

  /** Records through {@link RecordReader}, sealed interfaces of records through {@link SealedReader}. */
  private static final class RecordDeserializers extends Deserializers.Base {
    @Override
    public @Nullable ValueDeserializer<?> findBeanDeserializer(JavaType type, DeserializationConfig config,
        BeanDescription.Supplier beanDescRef) {
      Class<?> raw = type.getRawClass();
      if (raw.isRecord()) {
        return new RecordReader(RecordForm.of(raw));
      }
      if (raw.isInterface() && raw.isSealed()) {
        return new SealedReader(raw);
      }
      return null;
    }

    @Override
    public boolean hasDeserializerFor(DeserializationConfig config, Class<?> valueType) {
      return valueType.isRecord() || valueType.isInterface() && valueType.isSealed();
    }
  }
}
