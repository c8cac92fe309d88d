package dev.herald.internal.session;

/**
 * Counters of what a session dropped or refused, for tests and diagnostics.
 *
 * @param unknownNotifications notifications with an unregistered method, dropped
 * @param lateResponses responses to no pending request (finished, cancelled, timed out, or never sent)
 * @param ignoredCancellations cancellations of unknown, finished or uncancellable requests
 * @param progressUnknown progress updates for tokens this side never issued
 * @param progressLate progress updates for tokens whose request had ended
 * @param progressRefusedBySender reports a handler made that the emitter refused
 * @param invalidFrames malformed frames received
 */
public record EngineStats(
    long unknownNotifications,
    long lateResponses,
    long ignoredCancellations,
    long progressUnknown,
    long progressLate,
    long progressRefusedBySender,
    long invalidFrames) {}
