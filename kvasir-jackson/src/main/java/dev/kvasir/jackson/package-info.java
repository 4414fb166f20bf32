/**
 * A {@link dev.kvasir.mapping.ValueCodec} that maps through Jackson (docs/mapping.md §6).
 */
@NullMarked
package dev.kvasir.jackson;

import org.jspecify.annotations.NullMarked;
