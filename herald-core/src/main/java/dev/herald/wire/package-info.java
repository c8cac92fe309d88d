/**
 * The wire layer: the JSON-RPC envelope, every MCP type as an immutable record, the codec, and the
 * {@link dev.herald.wire.ProtocolVersion} table. Knows messages, not who sent them.
 *
 * <p>Threading: every type is immutable and thread-safe. Nulls: members are non-null unless marked
 * {@code @Nullable}; an absent optional member is {@code null} and is omitted on the wire.
 */
@NullMarked
package dev.herald.wire;

import org.jspecify.annotations.NullMarked;
