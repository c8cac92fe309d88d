package dev.herald.wire;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Typed {@code error.data} of the MCP errors that define one: -32022
 * {@code UnsupportedProtocolVersionError} and -32021 {@code MissingRequiredClientCapabilityError}
 * (2026-07-28), and -32042 {@code URLElicitationRequiredError} (2025-11-25). Read them with
 * {@link McpJson#resultFromTree} from {@link JsonRpcMessage.ErrorObject#data()}.
 */
public final class ErrorData {
  private ErrorData() {}

  /** {@code data} of -32022 (and of the legacy -32602 "Unsupported protocol version" example). */
  public record UnsupportedProtocolVersion(List<String> supported, String requested) {
    public UnsupportedProtocolVersion {
      supported = List.copyOf(java.util.Objects.requireNonNull(supported, "supported"));
      java.util.Objects.requireNonNull(requested, "requested");
    }

    public McpException toException() {
      return new McpException(
          ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
          "Unsupported protocol version: " + requested,
          toData(this));
    }
  }

  /** {@code data} of -32021: the capabilities the request needs but did not declare. */
  public record MissingRequiredClientCapability(ClientCapabilities requiredCapabilities) {
    public MissingRequiredClientCapability {
      java.util.Objects.requireNonNull(requiredCapabilities, "requiredCapabilities");
    }

    public McpException toException() {
      return new McpException(
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
          "Missing required client capability",
          toData(this));
    }
  }

  /** {@code data} of -32042: the URL-mode elicitations the user must complete first. */
  public record UrlElicitationRequired(List<ElicitParams> elicitations) {
    public UrlElicitationRequired {
      elicitations = List.copyOf(java.util.Objects.requireNonNull(elicitations, "elicitations"));
    }

    public McpException toException() {
      return new McpException(
          ErrorCodes.URL_ELICITATION_REQUIRED,
          "This request requires more information.",
          toData(this));
    }
  }

  private static JsonNode toData(Object data) {
    return McpJson.toTree(data);
  }
}
