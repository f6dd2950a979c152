package io.fleetkit.api.resource.dra;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One attribute of a device ({@code DeviceAttribute}): exactly one of a string, an integer, a boolean or a semantic
 * version. Build with {@link #ofString}, {@link #ofInt}, {@link #ofBool} or {@link #ofVersion}.
 *
 * @param string the string value, or {@code null}
 * @param integer the integer value, or {@code null}
 * @param bool the boolean value, or {@code null}
 * @param version the semantic version (semver 2.0.0 in its minimal form), or {@code null}
 */
public record DeviceAttribute(@Nullable String string, @Nullable Long integer, @Nullable Boolean bool,
    @Nullable String version) {
  /** Kubernetes' {@code DeviceAttributeMaxValueLength}. */
  public static final int MAX_VALUE_LENGTH = 64;

  /** @throws IllegalArgumentException unless exactly one value is set */
  public DeviceAttribute {
    int set = (string == null ? 0 : 1) + (integer == null ? 0 : 1) + (bool == null ? 0 : 1)
        + (version == null ? 0 : 1);
    if (set != 1) {
      throw new IllegalArgumentException("device attribute: exactly one value must be specified, got " + set);
    }
  }

  public static DeviceAttribute ofString(String value) {
    return new DeviceAttribute(Objects.requireNonNull(value, "value"), null, null, null);
  }

  public static DeviceAttribute ofInt(long value) {
    return new DeviceAttribute(null, value, null, null);
  }

  public static DeviceAttribute ofBool(boolean value) {
    return new DeviceAttribute(null, null, value, null);
  }

  public static DeviceAttribute ofVersion(String value) {
    return new DeviceAttribute(null, null, null, Objects.requireNonNull(value, "value"));
  }

  /** The value as a Java object: a String, Long, Boolean, or for a version a {@link Version}. */
  public Object value() {
    if (string != null) {
      return string;
    }
    if (integer != null) {
      return integer;
    }
    if (bool != null) {
      return bool;
    }
    return new Version(Objects.requireNonNull(version));
  }

  /** A semantic version attribute value, kept apart from strings as CEL keeps them apart. */
  public record Version(String text) {
    public Version {
      Objects.requireNonNull(text, "text");
    }
  }

  @Override
  public String toString() {
    return string != null ? '"' + string + '"' : String.valueOf(value());
  }
}
