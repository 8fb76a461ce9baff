package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.admin.AdminHooks;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
public final class AdminProtocol {
    public static final String PREFIX = "/kumiko/admin/";
    private static final List<String> CLOCK_MEMBERS =
            List.of("epochSeconds", "epochMillis", "advanceSeconds", "advanceMillis", "reset");

    private final AdminHooks hooks;

    public AdminProtocol(AdminHooks hooks) {
        this.hooks = hooks;
    }

    /** The response body, null if no endpoint has that path and method, or the error to answer. */
    public byte[] handle(String method, String path, byte[] body) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            boolean found = route(method, path, body, g);
            g.writeEndObject();
            return found ? out.toBytes() : null;
        } catch (IOException e) {
            throw new IllegalStateException("writing a response body failed", e);
        }
    }

    private boolean route(String method, String path, byte[] body, JsonGenerator g) throws IOException {
        switch (method + " " + path) {
            case "POST /kumiko/admin/ttl/sweep" -> g.writeNumberField("deletedItems", hooks.sweepTimeToLive());
            case "POST /kumiko/admin/streams/trim" -> g.writeNumberField("deletedRecords", hooks.trimStreams());
            case "POST /kumiko/admin/clock" -> {
                setClock(object(body));
                clock(g);
            }
            case "GET /kumiko/admin/clock" -> clock(g);
            default -> {
                return false;
            }
        }
        return true;
    }

    private void setClock(Map<String, Object> b) {
        List<String> given = new ArrayList<>();
        for (String m : CLOCK_MEMBERS) {
            if (b.get(m) != null && b.get(m) != JsonNull.INSTANCE) {
                given.add(m);
            }
        }
        if (given.size() != 1) {
            throw DynamoException.validation("Give exactly one of " + CLOCK_MEMBERS + "; got " + given);
        }
        String member = given.get(0);
        switch (member) {
            case "epochSeconds" -> hooks.setTimeToLiveClock(millis(Fields.longValue(b, member), 1000));
            case "epochMillis" -> hooks.setTimeToLiveClock(Fields.longValue(b, member));
            case "advanceSeconds" -> hooks.advanceTimeToLiveClock(millis(Fields.longValue(b, member), 1000));
            case "advanceMillis" -> hooks.advanceTimeToLiveClock(Fields.longValue(b, member));
            case "reset" -> {
                if (!Boolean.TRUE.equals(Fields.bool(b, "reset"))) {
                    throw DynamoException.validation("reset must be true");
                }
                hooks.resetTimeToLiveClock();
            }
            default -> throw new AssertionError(given);
        }
    }

    private static long millis(long value, long factor) {
        try {
            return Math.multiplyExact(value, factor);
        } catch (ArithmeticException e) {
            throw DynamoException.validation("Out of range: " + value);
        }
    }

    private void clock(JsonGenerator g) throws IOException {
        long now = hooks.timeToLiveNowMillis();
        g.writeNumberField("epochMillis", now);
        g.writeNumberField("epochSeconds", Math.floorDiv(now, 1000));
    }

    private static Map<String, Object> object(byte[] body) {
        if (body.length == 0) {
            throw DynamoException.validation("A JSON object body is required");
        }
        return JsonTree.parseObject(body, 0, body.length);
    }
}
