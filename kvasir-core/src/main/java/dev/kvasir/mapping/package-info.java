/**
 * How Java objects become values Deno reads and back (docs/mapping.md): {@link
 * dev.kvasir.mapping.ValueMapper}, the user's {@link dev.kvasir.mapping.ValueCodec}s and {@link
 * dev.kvasir.mapping.TypeRef} for generic types.
 */
@NullMarked
package dev.kvasir.mapping;

import org.jspecify.annotations.NullMarked;
