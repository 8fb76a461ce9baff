package dev.kumiko.catalog;

/** The role of a key attribute. */
public enum KeyType {
    HASH, RANGE
}
