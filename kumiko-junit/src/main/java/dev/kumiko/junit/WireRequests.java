package dev.kumiko.junit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends fixture files to the server as they are, in DynamoDB's JSON 1.0 protocol: the files already
 * are request bodies (CreateTable, BatchWriteItem's RequestItems, PutItem), so nothing is parsed or
 * mapped here, and the server answers a bad file with DynamoDB's own error.
 */
final class WireRequests {
    private static final String TARGET_PREFIX = "DynamoDB_20120810.";
    /** Any credential scope: the embedded server runs with --auth=none. */
    private static final String AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=kumiko/20250101/us-east-1/dynamodb/"
            + "aws4_request, SignedHeaders=host, Signature=0";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI endpoint;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();

    WireRequests(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Sends one request; returns the response body, or throws with the server's error and the file's name. */
    String send(String operation, String body, String source) {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", TARGET_PREFIX + operation)
                .header("Authorization", AUTHORIZATION)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(source + ": " + operation + " failed with HTTP " + response.statusCode()
                        + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(source + ": " + operation + " could not reach Kumiko at " + endpoint, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(source + ": interrupted", e);
        }
    }
}
