package dev.kvasir.spi;

import java.util.List;

/**
 * What one commit asks of an engine: every check must hold, then the mutations apply in order
 * and the messages are enqueued, all under one new commit versionstamp, or nothing happens.
 */
public record AtomicWrite(List<Check> checks, List<Mutation> mutations, List<Enqueue> enqueues) {
  public AtomicWrite {
    checks = List.copyOf(checks);
    mutations = List.copyOf(mutations);
    enqueues = List.copyOf(enqueues);
  }
}
