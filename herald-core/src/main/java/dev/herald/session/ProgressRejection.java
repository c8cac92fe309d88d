package dev.herald.session;

/** Why a received progress notification was refused. */
public enum ProgressRejection {
  /** The token belongs to no request this side ever knew (or one long forgotten). */
  UNKNOWN,
  /** The token's request has already ended. */
  LATE,
  /** The value is not greater than the last accepted one. */
  NOT_INCREASING,
  /** The value (or the total) is not a finite number. */
  NON_FINITE,
  /** Local policy: a total that is zero or negative. */
  INVALID_TOTAL
}
