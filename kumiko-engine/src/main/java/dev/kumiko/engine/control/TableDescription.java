package dev.kumiko.engine.control;

import dev.kumiko.catalog.TableDescriptor;

/** What DescribeTable (and the other control-plane answers) report about one table. */
public record TableDescription(
        TableDescriptor descriptor, String tableStatus, long itemCount, long sizeBytes, String tableArn,
        String region) {}
