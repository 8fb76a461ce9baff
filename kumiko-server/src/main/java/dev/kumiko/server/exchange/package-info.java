@NullMarked
package dev.kumiko.server.exchange;

import org.jspecify.annotations.NullMarked;
