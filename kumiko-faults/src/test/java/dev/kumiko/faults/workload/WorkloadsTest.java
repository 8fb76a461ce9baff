package dev.kumiko.faults.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.faults.check.BankChecker;
import dev.kumiko.faults.check.ListAppendChecker;
import dev.kumiko.faults.check.RegisterChecker;
import dev.kumiko.faults.check.StreamsChecker;
import dev.kumiko.faults.check.Verdict;
import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Histories;
import dev.kumiko.faults.history.JsonLines;
import dev.kumiko.faults.history.Operation;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.memory.MemoryStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The workloads against two real servers over one store (two engines over one memory store behave
 * as one DynamoDB: TwoEnginesContract), each history judged by its checker. No faults here: this is
 * the baseline the fault harness (scripts/faults.sh) runs under faults.
 */
class WorkloadsTest {
    private static final MemoryStore STORE = new MemoryStore();
    private static Engine engineA;
    private static Engine engineB;
    private static KumikoServer serverA;
    private static KumikoServer serverB;

    @TempDir
    Path dir;

    @BeforeAll
    static void startTwoServers() throws InterruptedException {
        engineA = Engine.open(STORE);
        engineB = Engine.open(STORE);
        serverA = new KumikoServer(ServerConfig.defaults("127.0.0.1", 0, "us-east-1")).start(new Operations(engineA));
        serverB = new KumikoServer(ServerConfig.defaults("127.0.0.1", 0, "us-east-1")).start(new Operations(engineB));
        // Class loading of the SDK and the servers' first requests, before any workload's clock runs
        // (on a busy machine that alone took most of a run's seconds).
        for (URI endpoint : options().endpoints()) {
            try (DynamoDbClient client = Clients.of(endpoint, 60_000)) {
                client.listTables();
            }
        }
    }

    @AfterAll
    static void stop() {
        serverA.close();
        serverB.close();
        engineA.close();
        engineB.close();
    }

    private static WorkloadRun.Options options() {
        List<URI> endpoints = List.of(
                URI.create("http://127.0.0.1:" + serverA.port()), URI.create("http://127.0.0.1:" + serverB.port()));
        return new WorkloadRun.Options(endpoints, 6, 5, 10_000, 30, 7);
    }

    private List<Operation> run(Workload workload, String name) throws Exception {
        Path file = dir.resolve(name + ".jsonl");
        try (Recorder recorder = new Recorder(file)) {
            WorkloadRun.run(workload, options(), recorder);
        }
        return Histories.operations(JsonLines.read(file));
    }

    private static void assertValid(List<Operation> ops, Function<List<Operation>, Verdict> checker) {
        Verdict v = checker.apply(ops);
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
        assertThat(v.operationsChecked()).isEqualTo(ops.size());
        // Enough happened for the verdict to mean something, and nothing was lost to errors.
        assertThat(ops.stream().filter(Operation::ok).count()).isGreaterThan(10);
        assertThat(ops).noneMatch(op -> op.outcome() == EventType.INFO);
    }

    @Test
    void registersThroughTwoServersAreLinearizable() throws Exception {
        List<Operation> ops = run(new RegisterWorkload(2, 60), "register");
        assertValid(ops, new RegisterChecker()::check);
        assertThat(ops).anyMatch(op -> op.f().equals("cas") && Boolean.TRUE.equals(op.result()));
        assertThat(ops).anyMatch(op -> op.f().equals("cas") && Boolean.FALSE.equals(op.result()));
    }

    @Test
    void bankTransfersThroughTwoServersKeepTheTotal() throws Exception {
        List<Operation> ops = run(new BankWorkload(4, 20), "bank");
        assertValid(ops, new BankChecker()::check);
        assertThat(ops).anyMatch(op -> op.f().equals("transfer") && op.ok());
        assertThat(ops).anyMatch(op -> op.f().equals("read") && op.ok());
    }

    @Test
    void listAppendsThroughTwoServersAreNeitherLostNorReordered() throws Exception {
        List<Operation> ops = run(new ListAppendWorkload(3, 100), "list");
        assertValid(ops, new ListAppendChecker()::check);
        assertThat(ops).anyMatch(op -> op.f().equals("read") && op.result() instanceof List<?> l && l.size() > 5);
    }

    @Test
    void streamsThroughTwoServersHoldEveryWriteOnceInOrder() throws Exception {
        List<Operation> ops = run(new StreamsWorkload(3, 100), "streams");
        Verdict v = new StreamsChecker().check(ops);
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
        assertThat(ops).noneMatch(op -> op.outcome() == EventType.INFO);
        assertThat(ops.stream().filter(op -> op.f().equals("write") && op.ok()).count())
                .isGreaterThan(10);
        // Both servers read the stream, and each read holds records of several keys.
        List<Operation> streams =
                ops.stream().filter(op -> op.f().equals("stream") && op.ok()).toList();
        assertThat(streams).hasSizeGreaterThanOrEqualTo(2);
        assertThat(streams).allMatch(op -> op.result() instanceof java.util.Map<?, ?> m && m.size() > 1);
    }

    @Test
    void theCheckersCatchAHistoryTamperedWith() throws Exception {
        List<Operation> ops = run(new ListAppendWorkload(1, 1_000_000), "tampered");
        // Drop one acknowledged append from the final read of server B: a lost write as it would show.
        Operation last = ops.get(ops.size() - 1);
        assertThat(last.f()).isEqualTo("read");
        List<?> list = (List<?>) last.result();
        assertThat(list).isNotEmpty();
        Operation lossy = new Operation(
                last.process(),
                last.f(),
                last.key(),
                last.argument(),
                last.outcome(),
                list.subList(0, list.size() - 1),
                last.invokeIndex(),
                last.completeIndex());
        List<Operation> tampered = new java.util.ArrayList<>(ops.subList(0, ops.size() - 1));
        tampered.add(lossy);
        Verdict v = new ListAppendChecker().check(tampered);
        assertThat(v.result()).isEqualTo(Verdict.Result.INVALID);
    }
}
