package dev.kumiko.engine.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Last writer wins: the order of stamps, and how stamps and replica sets are stored. */
class StampTest {
    @Test
    void theLaterTimeWinsThenTheRegionNameThenTheSequence() {
        Stamp east = new Stamp(1_000, "us-east-1", 7);
        assertThat(new Stamp(1_001, "eu-west-1", 1).isNewerThan(east)).isTrue();
        // Equal times: every region picks the same winner, by region name.
        assertThat(new Stamp(1_000, "us-west-2", 1).isNewerThan(east)).isTrue();
        assertThat(new Stamp(1_000, "eu-west-1", 99).isNewerThan(east)).isFalse();
        // One region's writes in one millisecond: its log order.
        assertThat(new Stamp(1_000, "us-east-1", 8).isNewerThan(east)).isTrue();
        // The same write again is not newer: applying it twice changes nothing.
        assertThat(new Stamp(1_000, "us-east-1", 7).isNewerThan(east)).isFalse();
        assertThat(east.isNewerThan(Stamp.before("zz-last-1"))).isTrue();
    }

    @Test
    void stampsAndReplicaSetsRoundTripAndABadStampIsRefused() {
        Stamp s = new Stamp(1_733_000_000_123L, "ap-southeast-2", 42);
        assertThat(Stamp.decode(s.encode())).isEqualTo(s);
        assertThatThrownBy(() -> Stamp.decode(new byte[3]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("corrupt replication stamp: 3 bytes");

        ReplicaSet set = new ReplicaSet(
                "orders",
                List.of(
                        new ReplicaSet.Replica("us-east-1", ReplicaStatus.ACTIVE),
                        new ReplicaSet.Replica("eu-west-1", ReplicaStatus.CREATING)));
        assertThat(ReplicaSet.decode("orders", set.encode())).isEqualTo(set);
        assertThat(set.with("eu-west-1", ReplicaStatus.ACTIVE).replica("eu-west-1"))
                .isEqualTo(new ReplicaSet.Replica("eu-west-1", ReplicaStatus.ACTIVE));
        assertThat(set.without("eu-west-1").peersOf("us-east-1")).isEmpty();
        assertThat(set.peersOf("us-east-1")).containsExactly("eu-west-1");
    }
}
