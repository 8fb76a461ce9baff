package dev.kumiko.junit;

import dev.kumiko.embedded.Kumiko;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedAsyncClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;

/**
 * The enhanced clients, in a class of their own so that tests without
 * {@code software.amazon.awssdk:dynamodb-enhanced} on the class path never load its types.
 */
final class EnhancedClients {
    private EnhancedClients() {}

    static DynamoDbEnhancedClient sync(Kumiko kumiko) {
        return DynamoDbEnhancedClient.builder()
                .dynamoDbClient(kumiko.dynamoDbClient())
                .build();
    }

    static DynamoDbEnhancedAsyncClient async(Kumiko kumiko) {
        return DynamoDbEnhancedAsyncClient.builder()
                .dynamoDbClient(kumiko.dynamoDbAsyncClient())
                .build();
    }
}
