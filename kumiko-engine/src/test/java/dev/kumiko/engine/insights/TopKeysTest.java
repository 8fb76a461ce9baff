package dev.kumiko.engine.insights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Space-Saving counter's promises: exact below capacity, bounded memory, heavy hitters kept with bounded error. */
class TopKeysTest {
    @Test
    void belowCapacityEveryKeyIsCountedExactlyAndTheLargestComeFirst() {
        TopKeys<String> top = new TopKeys<>(10);
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j <= i; j++) {
                top.add("k" + i);
            }
        }
        List<TopKeys.Counted<String>> all = top.top(10);
        assertThat(all).extracting(TopKeys.Counted::key).containsExactly("k4", "k3", "k2", "k1", "k0");
        assertThat(all).extracting(TopKeys.Counted::count).containsExactly(5L, 4L, 3L, 2L, 1L);
        assertThat(all).extracting(TopKeys.Counted::overestimate).containsOnly(0L);
        assertThat(top.top(2)).extracting(TopKeys.Counted::key).containsExactly("k4", "k3");
        assertThat(top.total()).isEqualTo(15);
    }

    @Test
    void manyMoreKeysThanTheCapacityKeepTheHeavyHittersWithinTheirErrorBound() {
        int capacity = 20;
        TopKeys<Integer> top = new TopKeys<>(capacity);
        Map<Integer, Long> truth = new HashMap<>();
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            // Three hot keys take 30 % of the events; the rest spread over 10,000 cold keys.
            int r = random.nextInt(100);
            int key = r < 15 ? -1 : r < 25 ? -2 : r < 30 ? -3 : random.nextInt(10_000);
            top.add(key);
            truth.merge(key, 1L, Long::sum);
        }
        assertThat(top.size()).isEqualTo(capacity);
        assertThat(top.total()).isEqualTo(100_000);
        List<TopKeys.Counted<Integer>> first = top.top(3);
        assertThat(first).extracting(TopKeys.Counted::key).containsExactly(-1, -2, -3);
        for (TopKeys.Counted<Integer> c : top.top(capacity)) {
            long actual = truth.get(c.key());
            assertThat(c.count()).as("never under the true count").isGreaterThanOrEqualTo(actual);
            assertThat(c.count() - c.overestimate())
                    .as("at most the overestimate above it")
                    .isLessThanOrEqualTo(actual);
        }
    }

    @Test
    void aNewKeyTakesTheSmallestCountsPlaceAndInheritsIt() {
        TopKeys<String> top = new TopKeys<>(2);
        top.add("a");
        top.add("a");
        top.add("b");
        top.add("c"); // displaces b (count 1): c counts 2, of which 1 may be b's
        assertThat(top.top(2))
                .containsExactlyInAnyOrder(new TopKeys.Counted<>("a", 2, 0), new TopKeys.Counted<>("c", 2, 1));
        top.add("a");
        assertThat(top.top(1)).containsExactly(new TopKeys.Counted<>("a", 3, 0));
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> new TopKeys<String>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
