/** KV Connect: the data-path messages and {@code RemoteEngine}, the client for http(s) URLs. */
// "module": the server, which the messages are exported to, is built after this module.
@SuppressWarnings("module")
module dev.kvasir.connect {
  exports dev.kvasir.connect;
  // The generated protobuf messages, for the server only.
  exports dev.kvasir.connect.proto to dev.kvasir.server;

  requires transitive dev.kvasir.core;
  requires com.google.protobuf;
  requires com.fasterxml.jackson.databind;
  requires org.eclipse.jetty.client;
  requires org.eclipse.jetty.http2.client;
  requires org.eclipse.jetty.http2.client.transport;
  requires org.slf4j;

  provides dev.kvasir.spi.EngineProvider with dev.kvasir.connect.RemoteEngineProvider;
}
