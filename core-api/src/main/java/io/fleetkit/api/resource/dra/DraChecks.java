package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.Names;
import io.fleetkit.api.labels.Validation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of {@code pkg/apis/resource/validation/validation.go} shared by the DRA kinds, with its messages.
 * Stateless.
 */
final class DraChecks {
  /** Kubernetes' {@code DeviceRequestsMaxSize}. */
  static final int MAX_REQUESTS = 32;
  /** Kubernetes' {@code DeviceConstraintsMaxSize}. */
  static final int MAX_CONSTRAINTS = 32;
  /** Kubernetes' {@code DeviceSelectorsMaxSize}. */
  static final int MAX_SELECTORS = 32;
  /** Kubernetes' {@code DriverNameMaxLength}. */
  static final int DRIVER_NAME_MAX_LENGTH = 63;
  /** Kubernetes' {@code DeviceMaxIDLength} (the identifier part of a qualified name). */
  static final int ID_MAX_LENGTH = 32;

  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  static final String C_IDENTIFIER_MESSAGE = "a valid C identifier must start with alphabetic character or '_', "
      + "followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', "
      + "regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
  static final String NOT_A_REQUEST =
      "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

  private DraChecks() {}

  /** {@code field.TooMany}'s wording for a list longer than {@code max}. */
  static String tooMany(int max) {
    return "Too many: must have at most " + max + " items";
  }

  static void driverName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
      return;
    }
    if (name.length() > DRIVER_NAME_MAX_LENGTH) {
      v.add(field, "Too long: may not be more than " + DRIVER_NAME_MAX_LENGTH + " bytes", name);
    }
    if (!Names.isDnsSubdomain(name)) {
      for (String m : Validation.isDNS1123Subdomain(name)) {
        v.add(field, m, name);
      }
    }
  }

  static void poolName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
      return;
    }
    for (String part : name.split("/", -1)) {
      if (!Names.isDnsSubdomain(part)) {
        for (String m : Validation.isDNS1123Subdomain(part)) {
          v.add(field, m, part);
        }
      }
    }
  }

  /** {@code validateQualifiedName}: {@code name} or {@code domain/name}, the name a C identifier. */
  static void qualifiedName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field, "name required");
      return;
    }
    int slash = name.indexOf('/');
    if (slash < 0) {
      cIdentifier(v, field, name);
    } else {
      driverName(v, field, name.substring(0, slash));
      cIdentifier(v, field, name.substring(slash + 1));
    }
  }

  /** {@code validateFullyQualifiedName}: a qualified name with a domain. */
  static void fullyQualifiedName(Violations v, String field, String name) {
    qualifiedName(v, field, name);
    if (!name.isEmpty() && name.indexOf('/') < 0) {
      v.add(field, "must include a domain", name);
    }
  }

  private static void cIdentifier(Violations v, String field, String id) {
    if (id.isEmpty()) {
      v.required(field, "name required");
      return;
    }
    if (!C_IDENTIFIER.matcher(id).matches()) {
      v.add(field, C_IDENTIFIER_MESSAGE, id);
    }
    if (id.length() > ID_MAX_LENGTH) {
      v.add(field, "Too long: may not be more than " + ID_MAX_LENGTH + " bytes", id);
    }
  }

  /** {@code validateDeviceToleration} for each of a request's tolerations, and at most 16 of them. */
  static void tolerations(Violations v, String field, List<DeviceToleration> tolerations) {
    if (tolerations.size() > DeviceToleration.MAX_PER_REQUEST) {
      v.add(field, tooMany(DeviceToleration.MAX_PER_REQUEST), tolerations.size());
    }
    for (int i = 0; i < tolerations.size(); i++) {
      DeviceToleration t = tolerations.get(i);
      String path = field + "[" + i + "]";
      if (!t.key().isEmpty()) {
        v.qualifiedName(path + ".key", t.key());
      }
      switch (t.operator()) {
        case EXISTS -> {
          if (!t.value().isEmpty()) {
            v.add(path + ".value", "must be empty for operator `Exists`", t.value());
          }
        }
        case EQUAL -> labelValue(v, path + ".value", t.value());
      }
    }
  }

  /** {@code validateDeviceTaint} for each of a device's taints, and at most 16 of them. */
  static void taints(Violations v, String field, List<DeviceTaint> taints) {
    if (taints.size() > DeviceTaint.MAX_PER_DEVICE) {
      v.add(field, tooMany(DeviceTaint.MAX_PER_DEVICE), taints.size());
    }
    for (int i = 0; i < taints.size(); i++) {
      taint(v, field + "[" + i + "]", taints.get(i));
    }
  }

  /** {@code validateDeviceTaint}: the key a label name, the value (if any) a label value. */
  static void taint(Violations v, String path, DeviceTaint t) {
    v.qualifiedName(path + ".key", t.key()); // includes the check for an empty key
    if (!t.value().isEmpty()) {
      labelValue(v, path + ".value", t.value());
    }
  }

  private static void labelValue(Violations v, String field, String value) {
    for (String m : Validation.isValidLabelValue(value)) {
      v.add(field, m, value);
    }
  }

  /** The selectors of a class or request: at most 32, each a CEL expression in the supported subset. */
  static void selectors(Violations v, String field, List<DeviceSelector> selectors) {
    if (selectors.size() > MAX_SELECTORS) {
      v.add(field, tooMany(MAX_SELECTORS), selectors.size());
    }
    for (int i = 0; i < selectors.size(); i++) {
      DeviceSelector s = selectors.get(i);
      String path = field + "[" + i + "].cel.expression";
      if (s.expression().isEmpty()) {
        v.required(path);
      } else if (s.compileError() != null) {
        v.add(path, "compilation failed: " + s.compileError(), s.expression());
      }
    }
  }

  /** {@code validateDeviceClaim}: requests, then constraints. */
  static void deviceClaim(Violations v, String field, DeviceClaim claim) {
    List<DeviceRequest> requests = claim.requests();
    if (requests.size() > MAX_REQUESTS) {
      v.add(field + ".requests", tooMany(MAX_REQUESTS), requests.size());
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < requests.size(); i++) {
      DeviceRequest r = requests.get(i);
      String path = field + ".requests[" + i + "]";
      v.dnsLabel(path + ".name", r.name());
      if (!r.name().isEmpty() && !names.add(r.name())) {
        v.add(path + ".name", Violations.DUPLICATE, r.name());
      }
      request(v, path, r);
    }
    Set<String> refs = requestNames(claim);
    List<DeviceConstraint> constraints = claim.constraints();
    for (int i = 0; i < constraints.size(); i++) {
      DeviceConstraint c = constraints.get(i);
      String path = field + ".constraints[" + i + "]";
      for (int j = 0; j < c.requests().size(); j++) {
        requestNameRef(v, path + ".requests[" + j + "]", c.requests().get(j), refs);
      }
      if (c.matchAttribute() == null) {
        v.required(path + ".matchAttribute");
      } else {
        fullyQualifiedName(v, path + ".matchAttribute", c.matchAttribute());
      }
    }
    if (constraints.size() > MAX_CONSTRAINTS) {
      v.add(field + ".constraints", tooMany(MAX_CONSTRAINTS), constraints.size());
    }
  }

  /** The names constraints and allocation results may use: each request, and {@code request/subrequest}. */
  static Set<String> requestNames(DeviceClaim claim) {
    Set<String> names = new HashSet<>();
    for (DeviceRequest r : claim.requests()) {
      names.add(r.name());
      for (DeviceSubRequest s : r.firstAvailable()) {
        names.add(r.name() + "/" + s.name());
      }
    }
    return names;
  }

  /** {@code validateRequestNameRef}: {@code request} or {@code request/subrequest}, naming one of the claim's. */
  static void requestNameRef(Violations v, String field, String ref, Set<String> names) {
    String[] segments = ref.split("/", -1);
    if (segments.length > 2) {
      v.add(field, NOT_A_REQUEST, ref);
      return;
    }
    for (String segment : segments) {
      if (!Names.isDnsLabel(segment)) {
        for (String m : Validation.isDNS1123Label(segment)) {
          v.add(field, m, ref);
        }
      }
    }
    if (!names.contains(ref)) {
      v.add(field, NOT_A_REQUEST, ref);
    }
  }

  /** {@code validateDeviceRequest}: exactly one of {@code exactly} and {@code firstAvailable}. */
  private static void request(Violations v, String path, DeviceRequest r) {
    int kinds = 0;
    List<DeviceSubRequest> subs = r.firstAvailable();
    if (!subs.isEmpty()) {
      kinds++;
      if (subs.size() > DeviceRequest.MAX_FIRST_AVAILABLE) {
        v.add(path + ".firstAvailable", tooMany(DeviceRequest.MAX_FIRST_AVAILABLE), subs.size());
      }
      Set<String> subNames = new HashSet<>();
      for (int i = 0; i < subs.size(); i++) {
        DeviceSubRequest s = subs.get(i);
        String sp = path + ".firstAvailable[" + i + "]";
        v.dnsLabel(sp + ".name", s.name());
        if (!s.name().isEmpty() && !subNames.add(s.name())) {
          v.add(sp + ".name", Violations.DUPLICATE, s.name());
        }
        classSelectorsAndCount(v, sp, s.deviceClassName(), s.selectors(), s.allocationMode(), s.count());
        tolerations(v, sp + ".tolerations", s.tolerations());
      }
    }
    if (r.exactly() != null) {
      kinds++;
      exactly(v, path + ".exactly", r.exactly());
    }
    if (kinds == 0) {
      v.required(path, "exactly one of `exactly` or `firstAvailable` is required");
    } else if (kinds > 1) {
      v.add(path, "Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple "
          + "fields are set", null);
    }
  }

  private static void exactly(Violations v, String field, ExactDeviceRequest r) {
    classSelectorsAndCount(v, field, r.deviceClassName(), r.selectors(), r.allocationMode(), r.count());
    tolerations(v, field + ".tolerations", r.tolerations());
  }

  private static void classSelectorsAndCount(Violations v, String field, String deviceClassName,
      List<DeviceSelector> selectors, DeviceAllocationMode mode, long count) {
    if (deviceClassName.isEmpty()) {
      v.required(field + ".deviceClassName");
    } else {
      v.dnsSubdomain(field + ".deviceClassName", deviceClassName);
    }
    selectors(v, field + ".selectors", selectors);
    switch (mode) {
      case EXACT_COUNT -> {
        if (count <= 0) {
          v.add(field + ".count", Violations.POSITIVE, count);
        }
      }
      case ALL -> {
        if (count != 0) {
          v.add(field + ".count", "must not be specified when allocationMode is 'All'", count);
        }
      }
    }
  }
}
