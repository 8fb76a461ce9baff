package dev.kumiko.server.console;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.server.metrics.HotKeys;
import dev.kumiko.server.metrics.KeyHeat;
import dev.kumiko.server.metrics.ServerMetrics;
import dev.kumiko.server.protocol.JsonOut;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The GET paths served beside the DynamoDB API: {@code /metrics} (Prometheus), and the console
 * at {@code /console/} with its read-only JSON at {@code /console/api/} (the model, hot keys, and
 * the keys Contributor Insights counted, which no DynamoDB operation answers). Everything else the
 * console shows it asks the DynamoDB API for, from the browser, like any client.
 */
public final class ConsolePaths implements Function<FullHttpRequest, FullHttpResponse> {
    public static final String METRICS = "/metrics";
    public static final String CONSOLE = "/console";
    private static final String API = "/console/api/";
    /** Keys listed by the hot-key view. */
    static final int HOT_KEYS_SHOWN = 50;
    /** Keys per Contributor Insights rule on the table view: a CloudWatch graph's default top ten. */
    static final int KEYS_PER_RULE_SHOWN = 10;

    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    /** Whether the console answers, and why not. */
    public enum Access {
        ON,
        OFF,
        SIGV4
    }

    private final ServerMetrics metrics;
    private final HotKeys hotKeys;
    private final Access access;
    /** What /console/api/model answers without --console-model: no entities, so prefixes name them all. */
    static final byte[] NO_MODEL = "{\"entities\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final byte[] model;
    private final StaticFiles files = new StaticFiles();

    /**
     * @param hotKeys null when the console is not served (access not ON): nothing counts them then
     * @param model   the --console-model file's bytes, or null
     */
    public ConsolePaths(ServerMetrics metrics, HotKeys hotKeys, Access access, byte[] model) {
        assert hotKeys != null || access != Access.ON : "a served console shows hot keys";
        this.metrics = metrics;
        this.hotKeys = hotKeys;
        this.access = access;
        this.model = model == null ? NO_MODEL : model;
    }

    @Override
    public FullHttpResponse apply(FullHttpRequest req) {
        String path = new QueryStringDecoder(req.uri()).path();
        if (path.equals(METRICS)) {
            return PlainResponses.of(
                    HttpResponseStatus.OK, PROMETHEUS_TEXT, metrics.scrape().getBytes(StandardCharsets.UTF_8));
        }
        if (!path.equals(CONSOLE) && !path.startsWith(CONSOLE + "/")) {
            return null;
        }
        if (access == Access.SIGV4) {
            return PlainResponses.message(
                    HttpResponseStatus.FORBIDDEN,
                    "Kumiko's console is disabled when the "
                            + "server runs with --auth=sigv4: its requests from the browser are not signed");
        }
        if (access == Access.OFF) {
            return PlainResponses.message(HttpResponseStatus.NOT_FOUND, "Kumiko's console is off (--console=off)");
        }
        return console(path, req);
    }

    private FullHttpResponse console(String path, FullHttpRequest req) {
        if (path.equals(CONSOLE)) {
            return PlainResponses.redirect(CONSOLE + "/");
        }
        if (path.startsWith(API)) {
            return api(path.substring(API.length()), req);
        }
        String name = path.substring(CONSOLE.length() + 1);
        StaticFiles.File f = files.get(name.isEmpty() ? "index.html" : name);
        if (f == null) {
            return PlainResponses.message(HttpResponseStatus.NOT_FOUND, "No console file " + path);
        }
        return PlainResponses.of(HttpResponseStatus.OK, f.contentType(), f.body());
    }

    private FullHttpResponse api(String name, FullHttpRequest req) {
        return switch (name) {
            case "model" -> PlainResponses.json(HttpResponseStatus.OK, model);
            case "hot-keys" -> PlainResponses.json(HttpResponseStatus.OK, hotKeysJson());
            case "contributor-insights" ->
                PlainResponses.json(
                        HttpResponseStatus.OK,
                        ContributorInsightsJson.of(
                                metrics.contributorInsights(tableParameter(req), KEYS_PER_RULE_SHOWN)));
            default -> PlainResponses.message(HttpResponseStatus.NOT_FOUND, "No console endpoint " + name);
        };
    }

    /** The {@code table} query parameter, or null for every table. */
    private static @Nullable String tableParameter(FullHttpRequest req) {
        List<String> values = new QueryStringDecoder(req.uri()).parameters().get("table");
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private byte[] hotKeysJson() {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeNumberField("partitionReadUnitsPerSecondMax", HotKeys.PARTITION_READ_UNITS_PER_SECOND);
            g.writeNumberField("partitionWriteUnitsPerSecondMax", HotKeys.PARTITION_WRITE_UNITS_PER_SECOND);
            g.writeNumberField("nearLimitShare", HotKeys.NEAR_LIMIT_SHARE);
            g.writeArrayFieldStart("keys");
            for (KeyHeat.View v : hotKeys.top(HOT_KEYS_SHOWN)) {
                hotKey(g, v);
            }
            g.writeEndArray();
            g.writeEndObject();
            return out.toBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void hotKey(JsonGenerator g, KeyHeat.View v) throws IOException {
        g.writeStartObject();
        g.writeStringField("table", v.tableName());
        g.writeStringField("index", v.indexName());
        g.writeFieldName("key");
        JsonOut.value(g, v.partitionKey());
        g.writeNumberField("requests", round(v.requests()));
        g.writeNumberField("readUnits", round(v.readUnits()));
        g.writeNumberField("writeUnits", round(v.writeUnits()));
        g.writeNumberField("readPeakPerSecond", v.readPeakPerSecond());
        g.writeNumberField("writePeakPerSecond", v.writePeakPerSecond());
        boolean hot = v.readPeakPerSecond() >= HotKeys.NEAR_LIMIT_SHARE * HotKeys.PARTITION_READ_UNITS_PER_SECOND
                || v.writePeakPerSecond() >= HotKeys.NEAR_LIMIT_SHARE * HotKeys.PARTITION_WRITE_UNITS_PER_SECOND;
        g.writeBooleanField("nearLimit", hot);
        g.writeEndObject();
    }

    private static double round(double d) {
        return Math.round(d * 100) / 100.0;
    }
}
