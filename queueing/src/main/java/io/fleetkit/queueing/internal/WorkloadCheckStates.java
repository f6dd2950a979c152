package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionCheckState;
import java.util.List;

/** One workload's admission check states, and whether it was reported admitted (all ready with quota). */
final class WorkloadCheckStates {
  List<AdmissionCheckState> states = List.of();
  boolean admitted;
}
