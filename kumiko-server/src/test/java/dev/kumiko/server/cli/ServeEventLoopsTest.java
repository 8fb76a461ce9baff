package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many event loops `serve` runs: one per core, more when every write waits for an fsync. */
class ServeEventLoopsTest {
    @Test
    void oneLoopPerCoreWhenWritesDoNotWait() {
        assertThat(ServeCommand.eventLoopThreads("process", 1)).isEqualTo(1);
        assertThat(ServeCommand.eventLoopThreads("process", 2)).isEqualTo(2);
        assertThat(ServeCommand.eventLoopThreads("process", 16)).isEqualTo(16);
    }

    /** A loop holds one waiting write, so the loops bound how many writes share one fsync. */
    @Test
    void atLeastSixteenLoopsWhenWritesWaitForTheirFsync() {
        assertThat(ServeCommand.eventLoopThreads("fsync", 1)).isEqualTo(16);
        assertThat(ServeCommand.eventLoopThreads("fsync", 2)).isEqualTo(16);
        assertThat(ServeCommand.eventLoopThreads("fsync", 8)).isEqualTo(16);
        assertThat(ServeCommand.eventLoopThreads("fsync", 16)).isEqualTo(32);
    }
}
