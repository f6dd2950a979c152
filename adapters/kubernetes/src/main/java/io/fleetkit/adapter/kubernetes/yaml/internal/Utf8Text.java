package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file as strict UTF-8 with a size bound, so that Latin-1, UTF-16 or binary input is named as such (with the
 * line and column of the first bad byte) instead of the JDK's "Input length = 1", and an endless device is refused
 * instead of filling the heap. Stateless.
 */
public final class Utf8Text {
  private Utf8Text() {}

  /** The text is not UTF-8; the message says where. */
  public static final class NotUtf8Exception extends IOException {
    private static final long serialVersionUID = 1L;

    NotUtf8Exception(String message) {
      super(message);
    }
  }

  /**
   * The whole of {@code file}, decoded as UTF-8.
   *
   * @throws NotUtf8Exception naming the line and column of the first byte that is not UTF-8
   * @throws IOException when the file cannot be read or is longer than {@code maxBytes}
   */
  public static String read(Path file, long maxBytes) throws IOException {
    if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
      throw new IOException("is larger than " + maxBytes + " bytes"); // refused unread
    }
    // A device or pipe has no size: read at most one byte past the bound.
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
    }
    if (bytes.length > maxBytes) {
      throw new IOException("is larger than " + maxBytes + " bytes");
    }
    return decode(bytes);
  }

  /** {@code bytes} decoded as UTF-8, or a {@link NotUtf8Exception} naming where they are not. */
  public static String decode(byte[] bytes) throws NotUtf8Exception {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      int bad = firstBadByte(bytes);
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < bad; i++) {
        if (bytes[i] == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      String hint = bytes.length >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE)
          || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)) ? " (it looks like UTF-16)" : "";
      throw new NotUtf8Exception(String.format(java.util.Locale.ROOT,
          "is not UTF-8 text%s: byte 0x%02X at line %d, column %d cannot be decoded; save the file as UTF-8", hint,
          bytes[bad] & 0xFF, line, bad - lineStart + 1));
    }
  }

  /** The index of the first byte that does not start or continue a well-formed UTF-8 sequence. */
  static int firstBadByte(byte[] b) {
    int i = 0;
    while (i < b.length) {
      int c = b[i] & 0xFF;
      int n = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
      if (n < 0) {
        return i;
      }
      for (int k = 1; k <= n; k++) {
        if (i + k >= b.length || (b[i + k] & 0xC0) != 0x80) {
          return i;
        }
      }
      i += n + 1;
    }
    return Math.max(0, b.length - 1);
  }
}
