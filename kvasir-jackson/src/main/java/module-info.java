/**
 * Kvasir's values mapped through the application's Jackson {@code ObjectMapper}: {@link
 * dev.kvasir.jackson.JacksonCodec}.
 */
module dev.kvasir.jackson {
  exports dev.kvasir.jackson;

  requires transitive dev.kvasir.core;
  requires transitive com.fasterxml.jackson.databind;
  requires static org.jspecify;
}
