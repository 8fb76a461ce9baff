package dev.kumiko.server.cli;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.auth.SigV4Signing;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Operations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * How {@code kumiko export} and {@code import} call DynamoDB operations: on a running server over
 * HTTP (signed with $AWS_ACCESS_KEY_ID/$AWS_SECRET_ACCESS_KEY, or a placeholder key for a server
 * without --auth), or on an engine this process opened over a data directory.
 */
interface DynamoCaller extends AutoCloseable {
    Duration HTTP_TIMEOUT = Duration.ofSeconds(60);

    /** The answer's members; a DynamoDB error becomes a {@link Failure} with its type and message. */
    Map<String, Object> call(String operation, Map<String, Object> body);

    @Override
    void close();

    /** An error DynamoDB answered. */
    final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    static DynamoCaller inProcess(Engine engine, String region) {
        Operations operations = new Operations(engine);
        return new DynamoCaller() {
            @Override
            public Map<String, Object> call(String operation, Map<String, Object> body) {
                try {
                    byte[] answer = operations.handle(operation, body, new RequestContext(region), null);
                    return JsonTree.parseObject(answer, 0, answer.length);
                } catch (DynamoException e) {
                    throw new Failure(e.code().shortName() + ": " + e.getMessage());
                }
            }

            @Override
            public void close() {
                engine.close();
            }
        };
    }

    static DynamoCaller http(URI endpoint, String region) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
        String id = System.getenv().getOrDefault("AWS_ACCESS_KEY_ID", "kumiko");
        String secret = System.getenv().getOrDefault("AWS_SECRET_ACCESS_KEY", "kumiko");
        return new DynamoCaller() {
            @Override
            public Map<String, Object> call(String operation, Map<String, Object> body) {
                byte[] json = Json.write(body);
                String amzDate =
                        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC));
                String host =
                        endpoint.getPort() < 0 ? endpoint.getHost() : endpoint.getHost() + ":" + endpoint.getPort();
                String target = "DynamoDB_20120810." + operation;
                List<String> names = List.of("host", "x-amz-date", "x-amz-target");
                String headers = SigV4Signing.canonicalHeaders(
                        names,
                        n -> List.of(
                                switch (n) {
                                    case "host" -> host;
                                    case "x-amz-date" -> amzDate;
                                    default -> target;
                                }));
                String scope = amzDate.substring(0, 8) + "/" + region + "/dynamodb/" + SigV4Signing.TERMINATOR;
                String canonical = SigV4Signing.canonicalRequest(
                        "POST", "/", "", headers, String.join(";", names), SigV4Signing.sha256Hex(json));
                String signature = SigV4Signing.signature(
                        SigV4Signing.signingKey(secret, amzDate.substring(0, 8), region, "dynamodb"),
                        SigV4Signing.stringToSign(amzDate, scope, canonical));
                HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/"))
                        .timeout(HTTP_TIMEOUT)
                        .header("Content-Type", "application/x-amz-json-1.0")
                        .header("X-Amz-Target", target)
                        .header("X-Amz-Date", amzDate)
                        .header(
                                "Authorization",
                                SigV4Signing.ALGORITHM + " Credential=" + id + "/" + scope + ", SignedHeaders="
                                        + String.join(";", names) + ", Signature=" + signature)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(json))
                        .build();
                try {
                    HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    Map<String, Object> answer = answer(r);
                    if (r.statusCode() != 200) {
                        String type = String.valueOf(answer.get("__type"));
                        Object message = answer.containsKey("message") ? answer.get("message") : answer.get("Message");
                        throw new Failure(type.substring(type.indexOf('#') + 1) + ": " + message);
                    }
                    return answer;
                } catch (IOException e) {
                    throw new Failure("cannot reach " + endpoint + ": " + reason(e) + "; start `kumiko serve` there, "
                            + "or give --data-dir to open a data directory no server has open");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Failure("interrupted");
                }
            }

            @Override
            public void close() {
                // java.net.http's client has no close on Java 17; its threads are daemons.
            }

            private Map<String, Object> answer(HttpResponse<byte[]> r) {
                try {
                    return JsonTree.parseObject(r.body(), 0, r.body().length);
                } catch (DynamoException e) {
                    throw new Failure(endpoint + " answered HTTP " + r.statusCode() + " with a body that is not "
                            + "DynamoDB's JSON; give --endpoint the URL of a Kumiko server");
                }
            }
        };
    }

    /**
     * Why a connection failed, in words: the JDK's ConnectException for a refused connection has no
     * message at all (the "cannot reach ...: null").
     */
    static String reason(IOException e) {
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "no answer within " + HTTP_TIMEOUT.toSeconds() + " s";
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException
                    || t instanceof java.net.UnknownHostException) {
                return "the host name does not resolve";
            }
        }
        if (e instanceof java.net.ConnectException
                && (e.getMessage() == null || e.getMessage().isBlank())) {
            return "connection refused";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.strip();
    }

    /** JSON of parsed trees (the maps {@link JsonTree} gives and the CLI builds). */
    final class Json {
        private Json() {}

        static byte[] write(Object tree) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (var g = JsonTree.factory().createGenerator(out)) {
                dev.kumiko.server.exchange.JobRecord.tree(g, tree);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return out.toByteArray();
        }

        static String text(Object tree) {
            return new String(write(tree), StandardCharsets.UTF_8);
        }
    }
}
