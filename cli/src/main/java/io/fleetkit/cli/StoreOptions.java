package io.fleetkit.cli;

import io.fleetkit.store.etcd.EtcdStore;
import io.fleetkit.store.etcd.EtcdStoreBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The store options of the commands that keep state ({@code --store} and the etcd connection's certificates and
 * credentials), shared as a picocli mixin. {@link #etcd()} checks them all before anything runs and says which
 * option is wrong and why.
 */
final class StoreOptions {
  @Option(names = "--store", paramLabel = "memory|etcd://HOST:PORT|etcds://HOST:PORT", defaultValue = "memory",
      description = "Where the state lives: memory (default) or an etcd cluster, etcd://HOST:PORT in clear or "
          + "etcds://HOST:PORT over TLS (several endpoints: comma-separated).")
  String store = "memory";

  @Option(names = "--etcd-ca", paramLabel = "CA.pem",
      description = "etcds:// only: the PEM certificates of the authorities that sign etcd's server certificate"
          + " (default: the JDK's trusted authorities).")
  @Nullable Path ca;

  @Option(names = "--etcd-cert", paramLabel = "CERT.pem",
      description = "etcds:// only: this client's PEM certificate, for an etcd that requires client certificates"
          + " (with --etcd-key).")
  @Nullable Path cert;

  @Option(names = "--etcd-key", paramLabel = "KEY.pem",
      description = "The unencrypted PKCS#8 PEM private key of --etcd-cert.")
  @Nullable Path key;

  @Option(names = "--etcd-user", paramLabel = "USER",
      description = "The etcd user to log in as, when etcd has authentication enabled (with --etcd-password-file).")
  @Nullable String user;

  @Option(names = "--etcd-password-file", paramLabel = "FILE",
      description = "A file whose first line is the password of --etcd-user (never on the command line).")
  @Nullable Path passwordFile;

  /**
   * Checks every option before anything runs: {@link #etcd()} for an etcd store; for memory, that no etcd option
   * was given.
   *
   * @throws IllegalArgumentException naming the option at fault
   */
  void check() {
    if (isEtcd()) {
      etcd();
      return;
    }
    String given = ca != null ? "--etcd-ca" : cert != null ? "--etcd-cert" : key != null ? "--etcd-key"
        : user != null ? "--etcd-user" : passwordFile != null ? "--etcd-password-file" : null;
    if (given != null) {
      throw new IllegalArgumentException(given + " is for an etcd store, but --store is memory (give --store"
          + " etcd://HOST:PORT or etcds://HOST:PORT)");
    }
  }

  /** Whether {@code --store} names etcd. */
  boolean isEtcd() {
    return !store.equals("memory");
  }

  /**
   * A builder for the etcd store the options name, all settings but the prefix made; call again for another store.
   *
   * @throws IllegalArgumentException naming the option, the value and the rule, when {@code --store} is neither
   *     memory nor etcd endpoints, an etcd option is given without etcd or does not suit the transport, a file is
   *     missing or unreadable, or options that go together are given alone
   */
  EtcdStoreBuilder etcd() {
    if (!isEtcd()) {
      throw new IllegalStateException("--store is memory: there is no etcd to configure");
    }
    String[] endpoints = store.split(",", -1);
    for (String e : endpoints) {
      String scheme = e.trim().contains("://") ? e.trim().substring(0, e.trim().indexOf("://")) : "";
      if (!scheme.equals("etcd") && !scheme.equals("etcds") && !scheme.equals("http") && !scheme.equals("https")) {
        throw new IllegalArgumentException("--store: \"" + store + "\" must be memory, etcd://HOST:PORT or"
            + " etcds://HOST:PORT");
      }
    }
    EtcdStoreBuilder b;
    try {
      b = EtcdStore.builder(endpoints);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--store: " + e.getMessage(), e);
    }
    boolean tls = EtcdStore.endpoint(endpoints[0]).getScheme().equals("https");
    if (!tls && (ca != null || cert != null || key != null)) {
      throw new IllegalArgumentException((ca != null ? "--etcd-ca" : cert != null ? "--etcd-cert" : "--etcd-key")
          + " needs TLS, but --store " + store + " is in clear (use etcds://HOST:PORT)");
    }
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(cert != null ? "--etcd-cert " + cert + " needs --etcd-key (its private key)"
          : "--etcd-key " + key + " needs --etcd-cert (the certificate it belongs to)");
    }
    if ((user == null) != (passwordFile == null)) {
      throw new IllegalArgumentException(user != null ? "--etcd-user " + user + " needs --etcd-password-file"
          : "--etcd-password-file " + passwordFile + " needs --etcd-user");
    }
    if (ca != null) {
      b.trustedCertificates(readable("--etcd-ca", ca));
    }
    if (cert != null && key != null) {
      b.clientCertificate(readable("--etcd-cert", cert), readable("--etcd-key", key));
    }
    if (user != null && passwordFile != null) {
      if (user.isBlank()) {
        throw new IllegalArgumentException("--etcd-user must not be empty");
      }
      b.credentials(user, password(passwordFile));
    }
    return b;
  }

  private static Path readable(String option, Path file) {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(option + " " + file + ": no such file");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(option + " " + file + ": not a regular file");
    }
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(option + " " + file + ": not readable (check its permissions)");
    }
    return file;
  }

  private static String password(Path file) {
    readable("--etcd-password-file", file);
    String text;
    try {
      if (Files.size(file) > 4096) {
        throw new IllegalArgumentException("--etcd-password-file " + file + ": larger than 4096 bytes; it must"
            + " hold the password alone");
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new IllegalArgumentException("--etcd-password-file " + file + ": cannot be read as UTF-8 text ("
          + e.getMessage() + ")", e);
    }
    int end = text.indexOf('\n');
    String line = (end < 0 ? text : text.substring(0, end)).replaceFirst("\r$", "");
    if (line.isEmpty()) {
      throw new IllegalArgumentException("--etcd-password-file " + file + ": its first line is empty (it must"
          + " hold the password)");
    }
    return line;
  }
}
