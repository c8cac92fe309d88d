/**
 * The transport SPI: frames in, frames out, with the request each outbound message relates to so
 * stream-based transports can route it. Transports never look at JSON-RPC methods.
 *
 * <p>Threading: see {@link dev.herald.transport.Transport}. Nulls: non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.herald.transport;

import org.jspecify.annotations.NullMarked;
