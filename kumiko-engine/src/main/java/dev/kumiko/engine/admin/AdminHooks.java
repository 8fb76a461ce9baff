package dev.kumiko.engine.admin;

import dev.kumiko.engine.changelog.ChangeLogTrimmer;

/**
 * Operations outside the DynamoDB API that let a test run the engine's background work now
 * instead of waiting for it. The server exposes them under /kumiko/admin/; an embedded engine
 * through {@code Engine.admin()}.
 */
public final class AdminHooks {
    private final ChangeLogTrimmer trimmer;

    public AdminHooks(ChangeLogTrimmer trimmer) {
        this.trimmer = trimmer;
    }

    /** Trims stream records older than 24 hours now; returns how many were deleted. */
    public long trimStreams() {
        return trimmer.trimNow();
    }
}
