package io.fleetkit.api.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable byte string: a value of a {@link Secret}'s {@code data} or a {@link ConfigMap}'s {@code binaryData}.
 * Compared by content. {@link #toString()} never shows the content (only its length), so a value that reaches a log
 * line or an error message through its holder reveals nothing. Thread-safe.
 */
public final class Bytes {
  /** The empty byte string. */
  public static final Bytes EMPTY = new Bytes(new byte[0]);

  private final byte[] content;

  private Bytes(byte[] content) {
    this.content = content;
  }

  /** A byte string holding a copy of {@code content}. */
  public static Bytes of(byte[] content) {
    Objects.requireNonNull(content, "content");
    return content.length == 0 ? EMPTY : new Bytes(content.clone());
  }

  /** The UTF-8 encoding of {@code text} (how a Secret's {@code stringData} is folded into {@code data}). */
  public static Bytes ofUtf8(String text) {
    Objects.requireNonNull(text, "text");
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The bytes that the base64 text {@code base64} (standard alphabet, as in manifests) encodes.
   *
   * @throws IllegalArgumentException if {@code base64} is not valid base64; the message does not repeat the text
   */
  public static Bytes ofBase64(String base64) {
    Objects.requireNonNull(base64, "base64");
    try {
      return of(Base64.getDecoder().decode(base64));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("is not valid base64 (" + e.getMessage() + ")");
    }
  }

  /** A copy of the content. */
  public byte[] toByteArray() {
    return content.clone();
  }

  /** The content decoded as UTF-8. */
  public String utf8() {
    return new String(content, StandardCharsets.UTF_8);
  }

  /** The content in base64 (standard alphabet, padded), as manifests write it. */
  public String base64() {
    return Base64.getEncoder().encodeToString(content);
  }

  public int size() {
    return content.length;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Bytes b && Arrays.equals(content, b.content);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(content);
  }

  /** {@code <N bytes>}: never the content. */
  @Override
  public String toString() {
    return "<" + content.length + " bytes>";
  }
}
