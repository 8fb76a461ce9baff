/**
 * CloudWatch Contributor Insights for DynamoDB: the settings' operations (UpdateContributorInsights,
 * DescribeContributorInsights, ListContributorInsights) and the counting of the most accessed and
 * most throttled keys of the tables and indexes that have it on, in bounded memory
 * ({@link dev.kumiko.engine.insights.TopKeys}).
 */
@NullMarked
package dev.kumiko.engine.insights;

import org.jspecify.annotations.NullMarked;
