package io.fleetkit.adapter.slurm.internal;

/**
 * Reads GPU counts out of Slurm GRES strings: {@code gpu:2}, {@code gpu:a100:4(S:0-1)}, {@code gpu:1(IDX:0)},
 * {@code gpu:tesla:2,mps:100}, {@code N/A}, {@code (null)} or empty.
 */
public final class Gres {
  private Gres() {}

  /**
   * Total GPUs named in a GRES string (all types summed); 0 when none. A count (or total) beyond
   * {@link Integer#MAX_VALUE} is read as {@link Integer#MAX_VALUE}.
   */
  public static int gpus(String gres) {
    long total = 0;
    for (String item : items(gres)) {
      String[] parts = item.split(":");
      if (parts.length >= 2 && parts[0].equals("gpu")) {
        total = Math.min(Integer.MAX_VALUE, total + count(parts[parts.length - 1]));
      }
    }
    return (int) total;
  }

  /** The first GPU type in a GRES string ({@code a100} in {@code gpu:a100:4}), empty if untyped. */
  public static String gpuModel(String gres) {
    for (String item : items(gres)) {
      String[] parts = item.split(":");
      if (parts.length >= 3 && parts[0].equals("gpu")) {
        return parts[1];
      }
    }
    return "";
  }

  private static String[] items(String gres) {
    String s = gres.strip();
    if (s.isEmpty() || s.equals("N/A") || s.equals("(null)")) {
      return new String[0];
    }
    // drop "(S:0-1)" / "(IDX:0,1)" suffixes, whose commas are not item separators
    StringBuilder b = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0) {
        b.append(c);
      }
    }
    String[] out = b.toString().split(",");
    for (int i = 0; i < out.length; i++) {
      out[i] = out[i].strip();
      if (out[i].startsWith("gres:")) {
        out[i] = out[i].substring(5);
      } else if (out[i].startsWith("gres/")) {
        out[i] = out[i].substring(5).replace('=', ':');
      }
    }
    return out;
  }

  /** The leading ASCII digits' number (Slurm prints no other digits), at most {@link Integer#MAX_VALUE}. */
  private static int count(String s) {
    int i = 0;
    long n = 0;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      n = Math.min(Integer.MAX_VALUE, n * 10 + (s.charAt(i) - '0'));
      i++;
    }
    if (i == 0) {
      return 1; // "gpu:a100" without a count means one
    }
    return (int) n;
  }
}
