package io.fleetkit.networking.dns;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Encoded responses of the {@link DnsServer}, per question, for one {@link DnsSnapshot}: a repeated query is answered
 * by copying the bytes and writing the query's id into them, without parsing into records, resolving or encoding.
 *
 * <p>Only plain queries are cached ({@link #keyOf}): a standard query with one question whose name has no
 * compression pointer, and at most one additional record, an OPT at the root. The key holds the RD flag, the
 * transport and every byte after the header's flags exactly as sent: the section counts, the question (so the
 * echoed question keeps its case) and the OPT record (its payload size sets the UDP response limit, its version and
 * options whether the query is answered at all). That is all the response depends on besides the snapshot, so two
 * queries with one key get one answer; a query whose EDNS options do not parse has its own key and its FORMERR is not
 * cached. Everything else takes the full path. A new snapshot instance empties the cache; so does reaching
 * {@value #MAX_ENTRIES} entries (a flood of distinct names cannot grow memory).
 *
 * <p>Thread-safe.
 */
final class AnswerCache {
  static final int MAX_ENTRIES = 65_536;
  private static final int HEADER = 12;
  private static final int TYPE_OPT = 41;

  /** A query's key: its RD flag and transport, then its bytes from the section counts on. */
  static final class Key {
    private final byte[] bytes;
    private final int hash;

    private Key(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private record Generation(@Nullable DnsSnapshot snapshot, ConcurrentHashMap<Key, byte[]> answers) {}

  private volatile Generation current = new Generation(null, new ConcurrentHashMap<>());

  /**
   * The key of a plain query, or {@code null} when the query is anything else (then it is not cached).
   *
   * @param udpTransport whether the query came over UDP (the response size limit depends on it)
   */
  static @Nullable Key keyOf(byte[] buf, int len, boolean udpTransport) {
    if (len < HEADER + 5) {
      return null;
    }
    int flags = ((buf[2] & 0xff) << 8) | (buf[3] & 0xff);
    // QR=0, opcode QUERY; other flag bits of a query do not change the answer except RD
    if ((flags & 0xf800) != 0 || u16(buf, 4) != 1 || u16(buf, 6) != 0 || u16(buf, 8) != 0) {
      return null;
    }
    int additional = u16(buf, 10);
    if (additional > 1) {
      return null;
    }
    int p = HEADER;
    int nameBytes = 0;
    while (true) {
      if (p >= len) {
        return null;
      }
      int l = buf[p] & 0xff;
      if (l == 0) {
        p++;
        nameBytes++;
        break;
      }
      if (l > 63) {
        return null; // a compression pointer or a reserved label type
      }
      p += l + 1;
      nameBytes += l + 1;
      if (nameBytes > 254) {
        return null;
      }
    }
    int questionEnd = p + 4;
    if (questionEnd > len) {
      return null;
    }
    if (additional == 1) {
      // the root name, TYPE OPT, CLASS = payload size, TTL, RDLENGTH, RDATA
      int q = questionEnd;
      if (q + 11 > len || buf[q] != 0 || u16(buf, q + 1) != TYPE_OPT || q + 11 + u16(buf, q + 9) != len) {
        return null;
      }
    } else if (questionEnd != len) {
      return null;
    }
    byte[] key = new byte[1 + len - 4];
    key[0] = (byte) (((flags & 0x0100) != 0 ? 1 : 0) | (udpTransport ? 2 : 0)); // RD, transport
    System.arraycopy(buf, 4, key, 1, len - 4);
    return new Key(key);
  }

  private static int u16(byte[] b, int off) {
    return ((b[off] & 0xff) << 8) | (b[off + 1] & 0xff);
  }

  /** The cached response for {@code key} under {@code snapshot}, or {@code null}. Do not modify the array. */
  byte @Nullable [] get(DnsSnapshot snapshot, Key key) {
    Generation g = current;
    return g.snapshot == snapshot ? g.answers.get(key) : null;
  }

  /** Remembers {@code response} (as built for a query whose id is irrelevant) for {@code key} under {@code snapshot}. */
  void put(DnsSnapshot snapshot, Key key, byte[] response) {
    Generation g = current;
    if (g.snapshot != snapshot || g.answers.size() >= MAX_ENTRIES) {
      g = new Generation(snapshot, new ConcurrentHashMap<>());
      current = g;
    }
    g.answers.put(key, response);
  }

  /** How many responses are cached. */
  int size() {
    return current.answers.size();
  }
}
