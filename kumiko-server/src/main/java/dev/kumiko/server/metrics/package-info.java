@NullMarked
package dev.kumiko.server.metrics;

import org.jspecify.annotations.NullMarked;
