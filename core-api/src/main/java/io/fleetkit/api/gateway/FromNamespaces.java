package io.fleetkit.api.gateway;

/** Which namespaces may attach routes to a listener, spelled as in the Gateway API. */
public enum FromNamespaces {
  /** Routes in every namespace. */
  All,
  /** Routes in the Gateway's namespace only (the default). */
  Same,
  /** Routes in namespaces whose labels match the listener's selector. */
  Selector
}
