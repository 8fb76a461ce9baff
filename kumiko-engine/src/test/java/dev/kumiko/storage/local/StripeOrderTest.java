package dev.kumiko.storage.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The stripes a multi-key transaction locks: ascending (the lock order) and each once. */
class StripeOrderTest {

    @Test
    void stripesAreLockedAscendingAndOnce() {
        assertThat(KeyLocks.sortedDistinct(new int[] {5, 1, 5, 3, 1})).containsExactly(1, 3, 5);
        assertThat(KeyLocks.sortedDistinct(new int[] {7, 7})).containsExactly(7);
        assertThat(KeyLocks.sortedDistinct(new int[] {2, 9})).containsExactly(2, 9);
        assertThat(KeyLocks.sortedDistinct(new int[0])).isEmpty();
    }

    /** Agrees with the stream it replaced on generated stripe lists. */
    @Test
    void agreesWithDistinctThenSorted() {
        Random random = new Random(11);
        for (int i = 0; i < 10_000; i++) {
            int[] stripes = new int[1 + random.nextInt(30)];
            for (int j = 0; j < stripes.length; j++) {
                stripes[j] = random.nextInt(1 + random.nextInt(64));
            }
            int[] expected = Arrays.stream(stripes).distinct().sorted().toArray();
            assertThat(KeyLocks.sortedDistinct(stripes.clone())).containsExactly(expected);
        }
    }
}
