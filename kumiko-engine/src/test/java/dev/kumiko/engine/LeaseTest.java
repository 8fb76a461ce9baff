package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.background.Lease;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.WriteBatch;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One owner at a time; takeover on expiry or release; progress outlives the owner. */
class LeaseTest {
    @Test
    void oneOwnerAtATimeAndTakeoverWhenTheOwnerStopsRenewing() {
        AtomicLong now = new AtomicLong(1_000);
        try (MemoryStore store = new MemoryStore()) {
            Lease first = new Lease(store, "task", "engine-1", now::get);
            Lease second = new Lease(store, "task", "engine-2", now::get);
            Lease other = new Lease(store, "other-task", "engine-2", now::get);
            assertThat(first.hold()).isTrue();
            assertThat(second.hold()).as("held by engine-1").isFalse();
            assertThat(other.hold()).as("another task's lease is separate").isTrue();
            first.saveProgress(7, new byte[] {42});
            now.addAndGet(Lease.DURATION_MILLIS - 1);
            assertThat(first.hold()).as("renewed by its owner").isTrue();
            now.addAndGet(Lease.DURATION_MILLIS - 1);
            assertThat(second.hold()).as("renewed, so still engine-1's").isFalse();
            now.addAndGet(1);
            assertThat(second.hold())
                    .as("engine-1 stopped renewing: taken over")
                    .isTrue();
            assertThat(first.hold()).isFalse();
            assertThat(second.progress(7)).as("resumes where engine-1 stopped").containsExactly(42);
            second.saveProgress(7, null);
            assertThat(first.progress(7)).isNull();
            second.release();
            assertThat(first.hold()).as("released: taken at once").isTrue();
        }
    }

    @Test
    void aRecordTooShortToHoldAnExpiryIsAFreeLease() {
        AtomicLong now = new AtomicLong(1_000);
        try (MemoryStore store = new MemoryStore()) {
            Lease lease = new Lease(store, "task", "engine-1", now::get);
            assertThat(lease.hold()).isTrue();
            byte[] key = leaseKey(store);
            for (byte[] broken : new byte[][] {new byte[0], new byte[] {1, 2, 3}}) {
                store.apply(new WriteBatch().put(key, broken));
                Lease other = new Lease(store, "task", "engine-2", now::get);
                assertThat(other.hold())
                        .as("%d bytes: no owner's", broken.length)
                        .isTrue();
                assertThat(lease.hold()).as("taken by engine-2").isFalse();
                other.release();
                assertThat(lease.hold()).isTrue();
            }
        }
    }

    /** The one key the lease wrote. */
    private static byte[] leaseKey(MemoryStore store) {
        try (Cursor c = store.scan(new byte[] {KeySpace.LEASES}, new byte[] {KeySpace.LEASES + 1}, false)) {
            assertThat(c.next()).isTrue();
            byte[] key = c.key();
            assertThat(c.next()).isFalse();
            return key;
        }
    }
}
