package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsFileTest {
    @TempDir
    Path dir;

    private Path file(String json) throws IOException {
        Path f = dir.resolve("credentials.json");
        Files.writeString(f, json, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void absentFieldsTakeTheirDefaults() throws IOException {
        Map<String, AccessKey> keys = CredentialsFile.load(file("""
                {"keys": [
                  {"accessKeyId": "AKIAADMIN", "secretAccessKey": "s1"},
                  {"accessKeyId": "AKIAALICE", "secretAccessKey": "s2", "sessionToken": "t",
                   "accountId": "123456789012", "principalArn": "arn:aws:iam::123456789012:role/r",
                   "principalTags": {"userId": "alice"},
                   "policy": {"Version": "2012-10-17", "Statement": []}}
                ]}"""));
        AccessKey admin = keys.get("AKIAADMIN");
        assertThat(admin)
                .isEqualTo(new AccessKey(
                        "AKIAADMIN",
                        "s1",
                        null,
                        "000000000000",
                        "arn:aws:iam::000000000000:user/AKIAADMIN",
                        Map.of(),
                        null));
        AccessKey alice = keys.get("AKIAALICE");
        assertThat(alice.sessionToken()).isEqualTo("t");
        assertThat(alice.principalArn()).isEqualTo("arn:aws:iam::123456789012:role/r");
        assertThat(alice.principalTags()).containsExactly(Map.entry("userId", "alice"));
        assertThat(alice.policy()).containsKeys("Version", "Statement");
        assertThat(alice.toString()).doesNotContain("s2").doesNotContain("\"t\"");
    }

    @Test
    void aBadFileIsOneClearMessage() throws IOException {
        assertInvalid("{\"keys\": []}", "\"keys\" must be a non-empty array");
        assertInvalid("{\"key\": []}", "unknown member \"key\" (expected only \"keys\")");
        assertInvalid("{\"keys\": [{\"accessKeyId\": \"A\"}]}", "keys[0]: secretAccessKey is required");
        assertInvalid(
                "{\"keys\": [{\"accessKeyId\": \"A\", \"secretAccessKey\": \"s\", \"polcy\": {}}]}",
                "keys[0]: unknown member \"polcy\"");
        assertInvalid(
                "{\"keys\": [{\"accessKeyId\": \"A\", \"secretAccessKey\": \"s\"}, {\"accessKeyId\": \"A\", "
                        + "\"secretAccessKey\": \"t\"}]}",
                "keys[1]: accessKeyId A appears twice");
        assertInvalid(
                "{\"keys\": [{\"accessKeyId\": \"A\", \"secretAccessKey\": \"s\", \"accountId\": \"12\"}]}",
                "keys[0]: accountId must be 12 digits");
        assertInvalid(
                "{\"keys\": [{\"accessKeyId\": \"A\", \"secretAccessKey\": 5}]}",
                "keys[0]: secretAccessKey must be a non-empty string");
        assertInvalid("{\"keys\": [", "not a JSON object (Malformed request body: it is not valid JSON)");
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> CredentialsFile.load(missing))
                .isInstanceOf(CredentialsFile.Invalid.class)
                .hasMessage("credentials file " + missing + ": no such file");
    }

    private void assertInvalid(String json, String problem) throws IOException {
        Path f = file(json);
        assertThatThrownBy(() -> CredentialsFile.load(f))
                .isInstanceOf(CredentialsFile.Invalid.class)
                .hasMessage("credentials file " + f + ": " + problem);
    }
}
