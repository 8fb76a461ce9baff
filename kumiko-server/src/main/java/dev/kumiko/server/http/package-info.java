// Not yet @NullMarked: with the engine annotated, its calls into the engine pass values NullAway
// finds nullable (issue #64, the nullness of requests at the engine boundary).
package dev.kumiko.server.http;
