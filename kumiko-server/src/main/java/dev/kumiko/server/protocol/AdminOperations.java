package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.admin.AdminHooks;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.policy.AuthRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kumiko's own endpoints for tests, outside the DynamoDB API (plain JSON, no signature needed):
 *
 * <pre>
 * POST /kumiko/admin/ttl/sweep      delete every expired TTL item now      {"deletedItems": n}
 * POST /kumiko/admin/clock          set TTL's time, with exactly one of    {"epochMillis": t, "epochSeconds": s}
 *        {"epochSeconds": s} {"epochMillis": t} {"advanceSeconds": n} {"advanceMillis": n} {"reset": true}
 * GET  /kumiko/admin/clock          TTL's time now                         {"epochMillis": t, "epochSeconds": s}
 * POST /kumiko/admin/streams/trim   drop stream records older than 24 h    {"deletedRecords": n}
 * </pre>
 */
public final class AdminOperations {
    public static final String PREFIX = "/kumiko/admin/";
    private static final List<String> CLOCK_MEMBERS =
            List.of("epochSeconds", "epochMillis", "advanceSeconds", "advanceMillis", "reset");

    /** The body an admin request without one reads as (compared by identity: "{}" is another map). */
    static final Map<String, Object> NO_BODY = Collections.unmodifiableMap(new HashMap<>());

    /** Which clock change a POST /kumiko/admin/clock asks for: one member and its value. */
    private record ClockChange(String member, Map<String, Object> body) {}

    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of(
            "POST /kumiko/admin/ttl/sweep",
            "POST /kumiko/admin/streams/trim",
            "POST /kumiko/admin/clock",
            "GET /kumiko/admin/clock");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "POST /kumiko/admin/ttl/sweep" ->
                admin(
                        name,
                        (e, r, c) -> e.admin().sweepTimeToLive(),
                        (g, n, c) -> g.writeNumberField("deletedItems", n));
            case "POST /kumiko/admin/streams/trim" ->
                admin(name, (e, r, c) -> e.admin().trimStreams(), (g, n, c) -> g.writeNumberField("deletedRecords", n));
            case "POST /kumiko/admin/clock" ->
                new Operation<ClockChange, Long>(
                        Operation.Api.ADMIN,
                        name,
                        AdminOperations::clockChange,
                        (e, r, c) -> {
                            setClock(e.admin(), r);
                            return e.admin().timeToLiveNowMillis();
                        },
                        (g, now, c) -> clock(g, now),
                        AuthRule.neverGrantable());
            case "GET /kumiko/admin/clock" ->
                admin(name, (e, r, c) -> e.admin().timeToLiveNowMillis(), (g, now, c) -> clock(g, now));
            default -> throw new IllegalArgumentException("not an admin endpoint: " + name);
        };
    }

    private AdminOperations() {}

    /** An endpoint that reads no body. */
    private static <T> Operation<Operation.Nothing, T> admin(
            String methodAndPath, Operation.Call<Operation.Nothing, T> call, Operation.Encoder<T> encoder) {
        return new Operation<>(
                Operation.Api.ADMIN,
                methodAndPath,
                body -> Operation.Nothing.NOTHING,
                call,
                encoder,
                AuthRule.neverGrantable());
    }

    private static ClockChange clockChange(Map<String, Object> b) {
        if (b == NO_BODY) {
            throw DynamoException.validation("A JSON object body is required");
        }
        List<String> given = new ArrayList<>();
        for (String m : CLOCK_MEMBERS) {
            if (b.get(m) != null && b.get(m) != JsonNull.INSTANCE) {
                given.add(m);
            }
        }
        if (given.size() != 1) {
            throw DynamoException.validation("Give exactly one of " + CLOCK_MEMBERS + "; got " + given);
        }
        return new ClockChange(given.get(0), b);
    }

    private static void setClock(AdminHooks hooks, ClockChange change) {
        String member = change.member();
        Map<String, Object> b = change.body();
        switch (member) {
            case "epochSeconds" -> hooks.setTimeToLiveClock(millis(clockValue(b, member), 1000));
            case "epochMillis" -> hooks.setTimeToLiveClock(clockValue(b, member));
            case "advanceSeconds" -> hooks.advanceTimeToLiveClock(millis(clockValue(b, member), 1000));
            case "advanceMillis" -> hooks.advanceTimeToLiveClock(clockValue(b, member));
            case "reset" -> {
                if (!Boolean.TRUE.equals(Fields.bool(b, "reset"))) {
                    throw DynamoException.validation("reset must be true");
                }
                hooks.resetTimeToLiveClock();
            }
            default -> throw new AssertionError(member);
        }
    }

    /** The number a clock member carries; clockChange kept only a member present and not JSON null. */
    private static long clockValue(Map<String, Object> b, String member) {
        return Objects.requireNonNull(Fields.longValue(b, member), member);
    }

    private static long millis(long value, long factor) {
        try {
            return Math.multiplyExact(value, factor);
        } catch (ArithmeticException e) {
            throw DynamoException.validation("Out of range: " + value);
        }
    }

    private static void clock(JsonGenerator g, long now) throws IOException {
        g.writeNumberField("epochMillis", now);
        g.writeNumberField("epochSeconds", Math.floorDiv(now, 1000));
    }
}
