package dev.herald.wire;

import java.util.Collection;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a stateless (2026-07-28) request says about itself in {@code params._meta} (MCP 2026-07-28
 * basic/index, "Statelessness" and "_meta"; schema {@code RequestMetaObject}): its protocol
 * version and the client's capabilities (both required), the client's self-reported {@code
 * clientInfo}, the lowest {@code logLevel} it wants log messages for, and its progress token.
 *
 * <p>{@link #parse} is the one reader, for both sides and every transport: a missing or malformed
 * required field is -32602, a version this runtime does not serve is -32022 with {@code
 * data.supported} and {@code data.requested}, an unknown log level is -32602.
 *
 * @param version the request's protocol version
 * @param clientCapabilities what the client supports for this request ({@code {}} is none)
 * @param clientInfo the client's implementation, if it said (self-reported: never a security input)
 * @param logLevel the lowest level of {@code notifications/message} this request wants, or {@code
 *     null} for none at all
 * @param progressToken the request's progress token, if any
 */
public record RequestMeta(
    ProtocolVersion version,
    ClientCapabilities clientCapabilities,
    @Nullable Implementation clientInfo,
    @Nullable LoggingLevel logLevel,
    @Nullable ProgressToken progressToken) {

  /**
   * Whether {@code meta} names a protocol version at all: the mark of a stateless request (a
   * handshake-era request never carries one).
   */
  public static boolean namesVersion(@Nullable ObjectNode meta) {
    return meta != null && meta.has(MetaKeys.PROTOCOL_VERSION);
  }

  /**
   * Reads and checks a stateless request's {@code _meta}.
   *
   * @param supported the versions the reader serves; a version outside them is -32022
   * @throws McpException -32602 when a required field is missing or malformed, or the log level is
   *     unknown; -32022 when the version is not served
   */
  public static RequestMeta parse(
      @Nullable ObjectNode meta, Collection<ProtocolVersion> supported) {
    if (meta == null) {
      throw McpException.invalidParams(
          "Invalid params: _meta is required (with "
              + MetaKeys.PROTOCOL_VERSION
              + " and "
              + MetaKeys.CLIENT_CAPABILITIES
              + ")");
    }
    JsonNode v = meta.get(MetaKeys.PROTOCOL_VERSION);
    if (v == null || !v.isString()) {
      throw McpException.invalidParams(
          "Invalid params: _meta[\"" + MetaKeys.PROTOCOL_VERSION + "\"] must be a string");
    }
    String requested = v.stringValue();
    ProtocolVersion version = ProtocolVersion.parse(requested).orElse(null);
    if (version == null || !supported.contains(version)) {
      throw unsupportedVersion(requested, supported);
    }
    JsonNode caps = meta.get(MetaKeys.CLIENT_CAPABILITIES);
    if (caps == null || !caps.isObject()) {
      throw McpException.invalidParams(
          "Invalid params: _meta[\"" + MetaKeys.CLIENT_CAPABILITIES + "\"] must be an object");
    }
    ClientCapabilities capabilities;
    try {
      capabilities = McpJson.fromTree(caps, ClientCapabilities.class);
    } catch (McpException e) {
      throw McpException.invalidParams(
          "Invalid params: _meta[\"" + MetaKeys.CLIENT_CAPABILITIES + "\"]: " + e.getMessage());
    }
    Implementation info = null;
    JsonNode i = meta.get(MetaKeys.CLIENT_INFO);
    if (i != null && !i.isNull()) {
      info = MetaKeys.clientInfo(meta);
      if (info == null) {
        throw McpException.invalidParams(
            "Invalid params: _meta[\"" + MetaKeys.CLIENT_INFO + "\"] must be an Implementation");
      }
    }
    LoggingLevel level = null;
    JsonNode l = meta.get(MetaKeys.LOG_LEVEL);
    if (l != null && !l.isNull()) {
      level =
          LoggingLevel.parse(l.isString() ? l.stringValue() : "")
              .orElseThrow(() ->
                  McpException.invalidParams(
                      "Invalid params: _meta[\""
                          + MetaKeys.LOG_LEVEL
                          + "\"]: unknown logging level "
                          + l
                          + "; expected one of debug, info, notice, warning, error, critical,"
                          + " alert, emergency"));
    }
    return new RequestMeta(version, capabilities, info, level, MetaKeys.progressToken(meta));
  }

  /** -32022 naming the versions served and the one asked for (2026-07-28 basic/versioning). */
  public static McpException unsupportedVersion(
      String requested, Collection<ProtocolVersion> supported) {
    ObjectNode data = McpJson.object();
    ArrayNode list = data.putArray("supported");
    supported.forEach(s -> list.add(s.wire()));
    data.put("requested", requested);
    return new McpException(
        ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: " + requested + "; supported: " + list,
        data);
  }

  /** This metadata as a request's {@code _meta} object (what a client sends). */
  public ObjectNode toMeta() {
    ObjectNode meta = McpJson.object();
    meta.put(MetaKeys.PROTOCOL_VERSION, version.wire());
    meta.set(MetaKeys.CLIENT_CAPABILITIES, McpJson.toTree(clientCapabilities));
    if (clientInfo != null) {
      meta.set(MetaKeys.CLIENT_INFO, McpJson.toTree(clientInfo));
    }
    if (logLevel != null) {
      meta.put(MetaKeys.LOG_LEVEL, logLevel.wire());
    }
    if (progressToken != null) {
      meta.set(MetaKeys.PROGRESS_TOKEN, McpJson.toTree(progressToken));
    }
    return meta;
  }
}
