/**
 * Code the core's packages share that is no API: not exported by the module, and subject to
 * change on the class path.
 */
package dev.kvasir.internal;
