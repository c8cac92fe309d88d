/**
 * The stdio transport: newline-delimited JSON-RPC over a stream pair, for a server's own stdin and
 * stdout or a client's subprocess.
 *
 * <p>Threading: one reader thread per transport; writes are serialized. Nulls: non-null unless
 * marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.transport.stdio;

import org.jspecify.annotations.NullMarked;
