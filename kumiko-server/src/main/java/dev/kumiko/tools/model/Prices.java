package dev.kumiko.tools.model;

/**
 * Prices in USD used for the monthly cost. The defaults are AWS's published prices for DynamoDB Standard
 * tables in US East (N. Virginia), as listed on aws.amazon.com/dynamodb/pricing (on-demand and provisioned
 * pages) and checked on 2026-11-24: on-demand $0.125 per million read request units and $0.625 per
 * million write request units (the prices since the on-demand reduction of November 2024), provisioned
 * $0.00013 per RCU-hour and $0.00065 per WCU-hour, storage $0.25 per GB-month. Free tier and reserved
 * capacity are not applied. Every price can be overridden on the command line.
 */
public record Prices(
        double readRequestUnitPerMillion,
        double writeRequestUnitPerMillion,
        double rcuHour,
        double wcuHour,
        double storageGbMonth,
        double provisionedUtilization) {
    public static final double READ_REQUEST_UNIT_PER_MILLION_DEFAULT = 0.125;
    public static final double WRITE_REQUEST_UNIT_PER_MILLION_DEFAULT = 0.625;
    public static final double RCU_HOUR_DEFAULT = 0.00013;
    public static final double WCU_HOUR_DEFAULT = 0.00065;
    public static final double STORAGE_GB_MONTH_DEFAULT = 0.25;
    /** Provisioned capacity is sized at this share of the peak: 70 % is auto scaling's default target. */
    public static final double PROVISIONED_UTILIZATION_DEFAULT = 0.70;

    public static final Prices DEFAULTS = new Prices(
            READ_REQUEST_UNIT_PER_MILLION_DEFAULT,
            WRITE_REQUEST_UNIT_PER_MILLION_DEFAULT,
            RCU_HOUR_DEFAULT,
            WCU_HOUR_DEFAULT,
            STORAGE_GB_MONTH_DEFAULT,
            PROVISIONED_UTILIZATION_DEFAULT);
}
