/**
 * Kvasir's meters in a Micrometer registry: {@link dev.kvasir.micrometer.KvasirMetrics}.
 */
module dev.kvasir.micrometer {
  exports dev.kvasir.micrometer;

  requires transitive dev.kvasir.core;
  requires transitive micrometer.core;
}
