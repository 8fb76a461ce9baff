package dev.kumiko.server.json;

/** A JSON number kept as its text, so that no precision is lost before a field's type is known. */
public record JsonNumber(String text) {}
