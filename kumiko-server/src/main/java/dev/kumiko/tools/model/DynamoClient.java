package dev.kumiko.tools.model;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The DynamoDB JSON 1.0 protocol over plain HTTP (the JDK's client): the same path whether the endpoint
 * is the in-process server or one given with --endpoint. Requests are not signed; Kumiko with --auth=none
 * and DynamoDB Local accept them, AWS itself does not (docs/modeling.md).
 */
final class DynamoClient {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String TARGET_PREFIX = "DynamoDB_20120810.";
    // A well-formed but unsigned Authorization header: servers that route on the credential scope need one.
    private static final String AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=kumiko/20260101/us-east-1/dynamodb/"
            + "aws4_request, SignedHeaders=host, Signature=0";

    /** An error answer: DynamoDB's __type (without the namespace), its message and the HTTP status. */
    static final class CallFailed extends RuntimeException {
        final String type;

        CallFailed(String operation, String type, String message, int status) {
            super(operation + " failed: " + type + " (HTTP " + status + "): " + message, null, false, false);
            this.type = type;
        }
    }

    private final URI endpoint;
    private final HttpClient http;
    private int requests;

    DynamoClient(URI endpoint) {
        this.endpoint = endpoint;
        this.http = HttpClient.newBuilder()
                .connectTimeout(REQUEST_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    URI endpoint() {
        return endpoint;
    }

    /** Requests sent so far (every call is one round trip). */
    int requests() {
        return requests;
    }

    Map<String, Object> call(String operation, Map<String, Object> body) {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", TARGET_PREFIX + operation)
                .header("Authorization", AUTHORIZATION)
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.write(body, false)))
                .build();
        HttpResponse<byte[]> response;
        try {
            requests++;
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new ModelError("cannot reach " + endpoint + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelError("interrupted while waiting for " + endpoint);
        }
        Map<String, Object> answer = Json.parse(response.body(), operation + " response");
        if (response.statusCode() != 200) {
            String type = String.valueOf(answer.getOrDefault("__type", "UnknownError"));
            Object message = answer.containsKey("message") ? answer.get("message") : answer.get("Message");
            throw new CallFailed(
                    operation, type.substring(type.indexOf('#') + 1), String.valueOf(message), response.statusCode());
        }
        return answer;
    }
}
