package dev.kumiko.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A backup record stores its kind and status by ordinal (BackupRecord.encode), so their order is
 * part of the stored format: a constant may be added at the end, never inserted, removed or
 * reordered.
 */
class StoredBackupEnumsTest {
    @Test
    void theStoredOrderOfEachEnumIsFixed() {
        assertThat(BackupRecord.Kind.values()).extracting(Enum::name).startsWith("USER", "BASE");
        assertThat(BackupRecord.Status.values())
                .extracting(Enum::name)
                .startsWith("CREATING", "AVAILABLE", "DELETED", "FAILED");
    }
}
