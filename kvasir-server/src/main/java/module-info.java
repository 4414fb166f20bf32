/** {@code KvServer}: any engine served over KV Connect (HTTP/1.1, h2c, and h2 with TLS). */
module dev.kvasir.server {
  exports dev.kvasir.server;

  requires transitive dev.kvasir.connect;
  requires com.google.protobuf;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http2.server;
  requires org.eclipse.jetty.alpn.server;
  // ALPN on the JDK's own TLS, found by Jetty as a service.
  requires org.eclipse.jetty.alpn.java.server;
  requires org.slf4j;
  // TCP_QUICKACK (QuickAckConnector).
  requires jdk.net;
  // The process's limit on file descriptors, for the default connection limit (OpenConnections).
  requires jdk.management;
  // KvServer.Builder.metrics takes a Prometheus registry (docs/operations.md §5).
  requires transitive micrometer.core;
  requires dev.kvasir.micrometer;
  requires transitive micrometer.registry.prometheus;
  // The format /metrics answers in, chosen by the Accept header.
  requires io.prometheus.writer.text;
}
