package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.adapter.kubernetes.yaml.internal.KindRegistry;
import io.fleetkit.adapter.kubernetes.yaml.internal.ManifestReader;
import io.fleetkit.adapter.kubernetes.yaml.internal.ManifestWriter;
import io.fleetkit.adapter.kubernetes.yaml.internal.Utf8Text;
import io.fleetkit.api.meta.ApiObject;
import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads Kubernetes YAML manifests into core-api objects and writes them back, through fabric8's Kubernetes model.
 *
 * <p>Loading is all-or-nothing: either every object of every source is returned, or a {@link ManifestException}
 * lists every problem found in every source (unknown kind, malformed or negative quantity, missing name, duplicate
 * object, wrong type, a rule of a core-api record), each naming source, document, object, field and rule.
 * Namespaced objects without a namespace get {@code default}. Unknown fields are refused ({@link FieldValidation#STRICT},
 * kubectl's default) unless the caller passes {@link FieldValidation#IGNORE}. Fields the schema has and FleetKit
 * does not model ({@code securityContext}, {@code imagePullPolicy}) do not fail the load: the objects are loaded
 * without them and each is listed in {@link LoadedObjects#warnings()} with its source, line, object and path. YAML
 * aliases and merge keys ({@code <<: *base}) are expanded as kubectl expands them, with go-yaml's limit on
 * aliasing against "billion laughs" documents. Files must be UTF-8 and at most {@link #MAX_FILE_BYTES} long.
 *
 * <p>A cluster's dump loads as kubectl prints it ({@code kubectl get ... -A -o yaml}): a list document
 * ({@code apiVersion: v1, kind: List}, or the API server's {@code PodList}, {@code NodeList}...) has its items read
 * one by one, each as a document of its own whose problems and warnings name the item and its lines
 * ({@link ManifestProblem#item()}, {@link LoadedObjects#locationOf}); an object of a built-in Kubernetes kind
 * FleetKit does not model (Lease, Event, RBAC...), under that kind's real apiVersion, is left out with a
 * warning ({@code kind Lease (coordination.k8s.io/v1) is not modelled by FleetKit; ignored}); so is a pod volume of
 * a source FleetKit does not model (nfs, csi...).
 *
 * <p>Supported kinds: those of core-api (Node, Pod, Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, ControllerRevision,
 * Job, CronJob, Service, PersistentVolume, PersistentVolumeClaim, StorageClass, PriorityClass, HorizontalPodAutoscaler,
 * VerticalPodAutoscaler, PodDisruptionBudget, PodGroup, NodePool) as they are modelled. Thread-safe: all methods are
 * stateless.
 */
public final class KubernetesYaml {
  /** The largest manifest file read (256 MiB); a larger one, or an endless device, is refused unread. */
  public static final long MAX_FILE_BYTES = 256L * 1024 * 1024;

  private KubernetesYaml() {}

  /**
   * Loads every object from the given files and directories. Directories are walked recursively for
   * {@code *.yaml} and {@code *.yml} files, in sorted path order, following symbolic links; a directory without any
   * is a problem (nothing would be loaded). Files are read as UTF-8.
   *
   * @throws ManifestException listing every problem, including sources that do not exist or cannot be read
   */
  public static LoadedObjects load(List<Path> filesOrDirs) {
    return load(filesOrDirs, FieldValidation.STRICT);
  }

  /**
   * As {@link #load(List)}, with the given treatment of unknown fields.
   *
   * @throws ManifestException listing every problem, including sources that do not exist or cannot be read
   */
  public static LoadedObjects load(List<Path> filesOrDirs, FieldValidation fieldValidation) {
    ManifestReader reader = new ManifestReader(KindRegistry.standard(), fieldValidation);
    for (Path p : filesOrDirs) {
      if (Files.isDirectory(p)) {
        List<Path> files;
        try {
          files = manifestFiles(p);
        } catch (IOException | RuntimeException e) {
          reader.sourceProblem(p.toString(), "could not be listed: " + e.getMessage());
          continue;
        }
        if (files.isEmpty()) {
          reader.sourceProblem(p.toString(), "is a directory without any .yaml or .yml file");
          continue;
        }
        for (Path f : files) {
          readFile(reader, f);
        }
      } else if (Files.exists(p)) {
        readFile(reader, p);
      } else {
        reader.sourceProblem(p.toString(), "does not exist");
      }
    }
    return reader.result();
  }

  /**
   * The manifest files {@link #load(List)} reads from directory {@code dir}: its {@code *.yaml} and {@code *.yml}
   * files, recursively, in sorted path order. Symbolic links are followed (a directory given as a link, or linked
   * inside, is read like kubectl -R reads it); a link loop is an error, not walked forever.
   *
   * @throws IOException or {@link java.io.UncheckedIOException} when the directory cannot be listed
   */
  public static List<Path> manifestFiles(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir, FileVisitOption.FOLLOW_LINKS)) {
      return walk.filter(Files::isRegularFile).filter(KubernetesYaml::isYaml).sorted().toList();
    }
  }

  /**
   * Loads every object from one YAML text (one or more documents).
   *
   * @param sourceName names the text in problems, e.g. a file name
   * @throws ManifestException listing every problem
   */
  public static LoadedObjects parse(String yaml, String sourceName) {
    return parse(yaml, sourceName, FieldValidation.STRICT);
  }

  /**
   * As {@link #parse(String, String)}, with the given treatment of unknown fields.
   *
   * @throws ManifestException listing every problem
   */
  public static LoadedObjects parse(String yaml, String sourceName, FieldValidation fieldValidation) {
    ManifestReader reader = new ManifestReader(KindRegistry.standard(), fieldValidation);
    reader.read(yaml, sourceName);
    return reader.result();
  }

  /**
   * Writes {@code objects} as one multi-document YAML text, each document starting with {@code ---}. Empty and
   * default-valued optional fields are left out.
   *
   * @throws IllegalArgumentException if an object's kind is not supported
   */
  public static String dump(List<? extends ApiObject<?>> objects) {
    return ManifestWriter.write(KindRegistry.standard(), objects);
  }

  private static boolean isYaml(Path p) {
    String n = p.getFileName().toString();
    return n.endsWith(".yaml") || n.endsWith(".yml");
  }

  private static void readFile(ManifestReader reader, Path f) {
    String text;
    try {
      text = Utf8Text.read(f, MAX_FILE_BYTES);
    } catch (Utf8Text.NotUtf8Exception e) {
      reader.sourceProblem(f.toString(), e.getMessage());
      return;
    } catch (IOException | RuntimeException e) {
      reader.sourceProblem(f.toString(), "could not be read: " + e.getMessage());
      return;
    }
    reader.read(text, f.toString());
  }
}
