package com.example.orders;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;

/** The application code under test: orders through the enhanced client. */
public class OrderStore {
    private final DynamoDbTable<Order> orders;

    public OrderStore(DynamoDbEnhancedClient enhanced) {
        this.orders = enhanced.table("Orders", TableSchema.fromBean(Order.class));
    }

    public void save(Order order) {
        orders.putItem(order);
    }

    public Optional<Order> find(String customerId, String orderId) {
        return Optional.ofNullable(orders.getItem(Key.builder().partitionValue(customerId).sortValue(orderId).build()));
    }

    public List<Order> ofCustomer(String customerId) {
        return orders.query(QueryConditional.keyEqualTo(Key.builder().partitionValue(customerId).build()))
                .items().stream().toList();
    }

    public void delete(String customerId, String orderId) {
        orders.deleteItem(Key.builder().partitionValue(customerId).sortValue(orderId).build());
    }
}
