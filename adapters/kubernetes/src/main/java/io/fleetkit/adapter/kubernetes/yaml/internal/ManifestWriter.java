package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.api.meta.ApiObject;
import java.util.List;

/** Core objects to multi-document YAML through fabric8. Stateless; thread-safe. */
public final class ManifestWriter {
  private ManifestWriter() {}

  public static String write(KindRegistry registry, List<? extends ApiObject<?>> objects) {
    StringBuilder sb = new StringBuilder();
    for (ApiObject<?> o : objects) {
      KindConverter<?, ?> c = registry.forObject(o);
      if (c == null) {
        throw new IllegalArgumentException("dump: " + o.describe() + ": kind " + o.kind() + " ("
            + o.getClass().getName() + ") is not supported (supported: " + String.join(", ", registry.kinds())
            + ")");
      }
      String yaml = ManifestReader.SERIALIZATION.asYaml(toFabric8(c, o));
      if (!yaml.startsWith("---")) {
        sb.append("---\n");
      }
      sb.append(yaml);
      if (!yaml.endsWith("\n")) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /** The fabric8 form of one object. */
  public static Object toFabric8(KindConverter<?, ?> converter, ApiObject<?> o) {
    return convert(converter, o);
  }

  private static <F, C extends ApiObject<C>> F convert(KindConverter<F, C> converter, ApiObject<?> o) {
    return converter.toFabric8(converter.coreType().cast(o));
  }
}
