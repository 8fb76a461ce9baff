@NullMarked
package dev.kumiko.server.http;

import org.jspecify.annotations.NullMarked;
