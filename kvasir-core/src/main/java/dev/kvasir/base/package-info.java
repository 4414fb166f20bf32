/**
 * The vocabulary the API and the engine contract share, at the bottom of core's layers:
 * {@link dev.kvasir.base.Versionstamp}, {@link dev.kvasir.base.Consistency}, {@link
 * dev.kvasir.base.KvOptions}, the {@link dev.kvasir.base.KvException} family (the only
 * exceptions Kvasir raises on its own account) and {@link dev.kvasir.base.Hex}. It depends on
 * nothing but the JDK.
 */
@NullMarked
package dev.kvasir.base;

import org.jspecify.annotations.NullMarked;
