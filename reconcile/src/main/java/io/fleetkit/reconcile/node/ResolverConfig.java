package io.fleetkit.reconcile.node;

import java.util.ArrayList;
import java.util.List;

/**
 * A resolver configuration, what a {@code resolv.conf} says (the CRI's {@code DNSConfig}): nameservers, search domains
 * and options such as {@code ndots:5}. Lists are copied; {@code null} becomes empty.
 *
 * @param servers nameserver addresses, in order
 * @param searches search domains, in order
 * @param options options as written, {@code name} or {@code name:value}
 */
public record ResolverConfig(List<String> servers, List<String> searches, List<String> options) {
  public static final ResolverConfig EMPTY = new ResolverConfig(List.of(), List.of(), List.of());

  public ResolverConfig {
    servers = servers == null ? List.of() : List.copyOf(servers);
    searches = searches == null ? List.of() : List.copyOf(searches);
    options = options == null ? List.of() : List.copyOf(options);
  }

  /**
   * Reads a {@code resolv.conf} as the kubelet does ({@code parseResolvConf}): {@code nameserver} lines accumulate,
   * the last {@code search} line wins (each domain without its trailing dot) and so does the last {@code options}
   * line; {@code #} starts a comment line, and fields are split on whitespace.
   *
   * @throws IllegalArgumentException naming the line when a {@code nameserver} line has no address
   */
  public static ResolverConfig parse(String resolvConf) {
    List<String> servers = new ArrayList<>();
    List<String> searches = List.of();
    List<String> options = List.of();
    String[] lines = resolvConf.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String trimmed = lines[i].strip();
      if (trimmed.startsWith("#") || trimmed.isEmpty()) {
        continue;
      }
      String[] fields = trimmed.split("\\s+");
      switch (fields[0]) {
        case "nameserver" -> {
          if (fields.length < 2) {
            throw new IllegalArgumentException("resolv.conf line " + (i + 1) + ": nameserver list is empty");
          }
          servers.add(fields[1]);
        }
        case "search" -> {
          List<String> s = new ArrayList<>(fields.length - 1);
          for (int f = 1; f < fields.length; f++) {
            s.add(fields[f].endsWith(".") ? fields[f].substring(0, fields[f].length() - 1) : fields[f]);
          }
          searches = s;
        }
        case "options" -> options = List.of(fields).subList(1, fields.length);
        default -> { }
      }
    }
    return new ResolverConfig(servers, searches, options);
  }
}
