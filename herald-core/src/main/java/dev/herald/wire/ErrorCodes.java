package dev.herald.wire;

/**
 * JSON-RPC and MCP error codes (JSON-RPC 2.0, "Error object"; MCP 2025-11-25 basic/index, "Error
 * Responses", and 2026-07-28 basic/index, "Error Codes").
 */
public final class ErrorCodes {
  private ErrorCodes() {}

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** Legacy era only: resource not found. */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /** 2025-11-25 only: URL elicitation required. */
  public static final int URL_ELICITATION_REQUIRED = -32042;

  /** 2026-07-28: a header disagrees with the body. */
  public static final int HEADER_MISMATCH = -32020;

  /** 2026-07-28: the request needs a client capability it did not declare. */
  public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

  /** 2026-07-28: the protocol version is not supported. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  /**
   * Herald's own code (implementation-defined range) for a request refused because a limit was
   * reached: too many requests in flight, too many subscriptions.
   */
  public static final int LIMIT_EXCEEDED = -32000;

  /** Herald's own code for a request that the peer cancelled or that timed out locally. */
  public static final int REQUEST_CANCELLED = -32001;
}
