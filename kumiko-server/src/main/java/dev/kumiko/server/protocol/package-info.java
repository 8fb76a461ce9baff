@NullMarked
package dev.kumiko.server.protocol;

import org.jspecify.annotations.NullMarked;
