package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * The tagging operations' ResourceArn, case by case as DynamoDB answers it: not an ARN or not a
 * table ARN is a ValidationException, another service's or another account's ARN is access denied,
 * and a table ARN of this account that names no table is not found.
 */
class TagArnTest {
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void assertAllThree(String arn, String type, String messageOf) {
        assertError(
                () -> c.listTagsOfResource(b -> b.resourceArn(arn)),
                type,
                messageOf.replace("{op}", "ListTagsOfResource"));
        assertError(
                () -> c.tagResource(b -> b.resourceArn(arn)
                        .tags(Tag.builder().key("k").value("v").build())),
                type,
                messageOf.replace("{op}", "TagResource"));
        assertError(
                () -> c.untagResource(b -> b.resourceArn(arn).tagKeys("k")),
                type,
                messageOf.replace("{op}", "UntagResource"));
    }

    @Test
    void aStringThatIsNotAnArnIsInvalid() {
        assertAllThree(
                "table/x",
                "ValidationException",
                "Invalid TableArn: Invalid ResourceArn provided as input " + "table/x");
    }

    @Test
    void aDynamoDbArnThatNamesNoTableIsInvalid() {
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/x/backup/01";
        assertAllThree(arn, "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }

    @Test
    void anotherServicesArnIsAccessDenied() {
        String arn = "arn:aws:s3:us-east-1:000000000000:table/x";
        assertAllThree(
                arn,
                "AccessDeniedException",
                "User: arn:aws:iam::000000000000:root is not authorized to "
                        + "perform: dynamodb:{op} on resource: " + arn + " because no resource-based policy allows the "
                        + "dynamodb:{op} action");
    }

    @Test
    void anotherAccountsTableIsAccessDeniedEvenIfItsNameExists() {
        c.createTable(dev.kumiko.server.protocol.ControlPlaneValidationTest.table("tag-arn-t", b -> {}));
        String arn = "arn:aws:dynamodb:us-east-1:123456789012:table/tag-arn-t";
        assertAllThree(
                arn,
                "AccessDeniedException",
                "User: arn:aws:iam::000000000000:root is not authorized to "
                        + "perform: dynamodb:{op} on resource: " + arn + " because no resource-based policy allows the "
                        + "dynamodb:{op} action");
        String own = "arn:aws:dynamodb:us-east-1:000000000000:table/tag-arn-t";
        assertThat(c.listTagsOfResource(b -> b.resourceArn(own)).tags()).isEmpty();
    }

    @Test
    void aTableArnOfThisAccountThatNamesNoTableIsNotFound() {
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/absent";
        assertAllThree(
                arn, "ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + " not found");
    }
}
