package dev.kumiko.engine.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A change record stores these enums by ordinal (ChangeRecordCodec), so their order is part of the
 * stored format: a constant may be added at the end, never inserted, removed or reordered, or
 * every change log already written would decode wrongly.
 */
class StoredChangeEnumsTest {
    @Test
    void theStoredOrderOfEachEnumIsFixed() {
        assertThat(ChangeRecord.EventName.values()).extracting(Enum::name).startsWith("INSERT", "MODIFY", "REMOVE");
        assertThat(ChangeRecord.ViewType.values())
                .extracting(Enum::name)
                .startsWith("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES");
        assertThat(ChangeOrigin.values()).extracting(Enum::name).startsWith("CLIENT", "TIME_TO_LIVE");
    }
}
