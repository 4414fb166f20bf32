/**
 * Keys as Deno encodes them (docs/keys.md): the parts a key is made of ({@link
 * dev.kvasir.key.KeyPart}), their order-preserving binary codec ({@link
 * dev.kvasir.key.KeyCodec}) and the byte ranges that lists and reads cover ({@link
 * dev.kvasir.key.KeyRange}).
 */
@NullMarked
package dev.kvasir.key;

import org.jspecify.annotations.NullMarked;
