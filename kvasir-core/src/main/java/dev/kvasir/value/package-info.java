/**
 * Values as Deno stores them (docs/values.md): the JS value model ({@code JsMap}, {@code
 * JsSet}, {@link dev.kvasir.value.KvU64}, …), V8's serialization format ({@link
 * dev.kvasir.value.V8}) and a stored value's encoding and bytes ({@link
 * dev.kvasir.value.EncodedValue}).
 */
package dev.kvasir.value;
