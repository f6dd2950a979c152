package io.fleetkit.api.store;

import io.fleetkit.api.admission.AdmissionChain;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The settings the store contract tests make, each mapped by a store implementation onto its own builder (see
 * {@link ObjectStoreBuilder} for their meaning). An implementation runs the contract by extending each
 * {@code *Contract} class and returning its builder from {@link StoreContract#newBuilder()}.
 */
public interface ContractBuilder {
  ContractBuilder clock(Clock clock);

  ContractBuilder directDelivery();

  ContractBuilder deliveryExecutor(Executor executor);

  ContractBuilder uidGenerator(Supplier<String> uids);

  /** How many of the most recent versions stay available to watches that start in the past. */
  ContractBuilder historyLimit(int limit);

  ContractBuilder watchQueueLimit(int limit);

  ContractBuilder admission(AdmissionChain chain);

  /** A new, empty store: its version is {@code "1"} and it holds no object. */
  ObjectStore build();
}
